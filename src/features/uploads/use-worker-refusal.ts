import { useCallback, useEffect, useRef, type Dispatch } from 'react';
import { UPLOAD_TEXTS } from '../../../common/texts';
import { trpc, type CurrentUser } from '../../lib/trpc';
import type { PostFields } from './upload-metadata';
import type { UploadEvent, UploadState } from './upload-machine';

const isBlank = (fields: PostFields) =>
  !fields.title.trim() && !fields.postText.trim() && !fields.hashtags.trim() && !fields.isPaidContent && !fields.isNsfw && !fields.payPerView;

interface RefusalForm {
  getValues: () => PostFields;
  reset: (values: PostFields) => void;
}

/**
 * The worker refused the file the form sent (its content is not what its name says, it is
 * damaged...): the form had been cleared for the next post, so the creator's work comes back,
 * with the reason, unless they have started on another post meanwhile. Read from the list of
 * unfinished uploads, not the post:failed event alone: a small file can fail before its upload's
 * last response is in. Returns what the form calls with each upload it sends.
 */
export function useWorkerRefusal(user: CurrentUser | null | undefined, { phase, picked }: Pick<UploadState, 'phase' | 'picked'>, form: RefusalForm, dispatch: Dispatch<UploadEvent>) {
  /** What the last upload was sent with, until the worker settles it. */
  const sent = useRef<{ optimisticId: string; fields: PostFields } | null>(null);
  // the list the upload screen shows; post:failed (and every finish) refreshes it
  const unfinished = trpc.uploads.unfinished.useQuery(undefined, { enabled: !!user });
  const { getValues: fieldValues, reset: resetFields } = form;

  const failedRow = unfinished.data?.find((row) => row.status === 'failed' && !!sent.current && row.optimisticId === sent.current.optimisticId);
  useEffect(() => {
    const last = sent.current;
    if (!failedRow || !last || phase !== 'idle') return;
    sent.current = null;
    if (picked) return;
    if (isBlank(fieldValues())) resetFields(last.fields);
    const reason = failedRow.failureReason ?? UPLOAD_TEXTS.failedToUpload;
    dispatch({ type: 'worker-failed', failure: { text: { title: UPLOAD_TEXTS.uploadFailed, description: reason }, action: 'choose-another' } });
  }, [failedRow, phase, picked, fieldValues, resetFields, dispatch]);

  return useCallback((optimisticId: string, fields: PostFields) => {
    sent.current = { optimisticId, fields };
  }, []);
}
