import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, type Dispatch } from 'react';
import { SCHEDULE_TEXTS } from '../../../common/schedule';
import { UPLOAD_TEXTS } from '../../../common/texts';
import { parseHashtags } from '../../../common/uploads';
import { notify } from '../../lib/toast';
import { trpc, type CurrentUser } from '../../lib/trpc';
import { releaseTab } from './background-uploads';
import { addPendingPost, dropPending, hidePending, setUploadPercent, type PendingPost } from './pending-posts';
import { createPostUpload, type PostUpload, type PostUploadError, type UnfinishedUpload } from './tus-upload';
import { percentSent, type PickedFile, type PostStatusChoice, type UploadEvent, type UploadState } from './upload-machine';
import { EMPTY_FIELDS, toPostUploadFields, type PostFields } from './upload-metadata';
import { useUploadOnLeave } from './use-upload-on-leave';

/** The upload under way: its tus handle, and its feed card when it is a publish. */
export interface RunningUpload {
  handle: PostUpload;
  card: PendingPost | null;
}

/** A publish shows in the feed at once: 'Uploading N%' now, 'Processing...' once the bytes are in. */
function publishingCard(user: CurrentUser, { file, rule }: PickedFile, chosen: PostFields, optimisticId: string, previewUrl: string | null, startedAt: number): PendingPost {
  return {
    optimisticId,
    postId: null,
    filename: file.name,
    mediaKind: rule.mediaKind,
    title: chosen.title.trim() || null,
    text: chosen.postText.trim() || null,
    hashtags: parseHashtags(chosen.hashtags, chosen.postText),
    isPremium: chosen.isPaidContent,
    isNsfw: chosen.isNsfw,
    previewUrl,
    createdAt: new Date(),
    creator: user,
    uploadPercent: percentSent(startedAt, file.size),
    uploadedAt: null,
  };
}

interface RunOptions {
  user: CurrentUser | null | undefined;
  state: Pick<UploadState, 'phase' | 'picked' | 'progress'>;
  dispatch: Dispatch<UploadEvent>;
  /** empties the form once the post is on its way */
  resetFields: (values: PostFields) => void;
  /** told of each upload sent, for the worker's verdict on it */
  onSent: (optimisticId: string, fields: PostFields) => void;
}

/**
 * The form's one tus upload (tus-upload.ts): `begin` sends the picked file with the chosen
 * details (or continues an unfinished upload of it), and its callbacks move the form's state
 * machine, the feed's 'Publishing' card and the toasts; Pause, Resume and Cancel act on it.
 */
export function useUploadRun({ user, state: { phase, picked, progress }, dispatch, resetFields, onSent }: RunOptions) {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const running = useRef<RunningUpload | null>(null);
  const mounted = useUploadOnLeave(running, phase);

  const begin = useCallback(
    (choice: PostStatusChoice, chosen: PostFields, resume: UnfinishedUpload | null, publishAt?: Date) => {
      if (!picked || running.current) return;
      if (!user) {
        notify.error({ title: 'Error', description: UPLOAD_TEXTS.signInRequired });
        return;
      }
      const { file, rule } = picked;
      const optimisticId = resume?.metadata.optimisticId || crypto.randomUUID();
      const previewUrl = rule.category === 'image' ? URL.createObjectURL(file) : null;
      const published = choice === 'published' ? publishingCard(user, picked, chosen, optimisticId, previewUrl, resume ? resume.offset : 0) : null;
      const ours = () => running.current?.handle === handle;

      const handle = createPostUpload(
        file,
        toPostUploadFields(chosen, picked, { status: choice, publishAt, optimisticId }),
        user.id,
        {
          onProgress: (sentBytes, total) => {
            dispatch({ type: 'progressed', sent: sentBytes, total });
            if (published) setUploadPercent(queryClient, optimisticId, percentSent(sentBytes, total));
          },
          onSuccess: ({ postId }) => {
            if (!ours()) return;
            running.current = null;
            releaseTab(optimisticId);
            if (published) {
              addPendingPost(queryClient, { ...published, postId, uploadPercent: null, uploadedAt: new Date() });
            } else {
              if (previewUrl) URL.revokeObjectURL(previewUrl);
              notify.success(choice === 'scheduled' ? SCHEDULE_TEXTS.scheduled : { title: UPLOAD_TEXTS.savedAsDraft });
            }
            void utils.uploads.unfinished.invalidate();
            dispatch({ type: 'finished' });
            resetFields(EMPTY_FIELDS);
          },
          onError: (error: PostUploadError) => {
            if (!ours()) return;
            if (!mounted.current) {
              // it went on after its form was gone: the card goes, a toast says why (the upload
              // is listed as unfinished on /create, to resume or drop)
              running.current = null;
              releaseTab(optimisticId);
              dropPending(queryClient, optimisticId);
              notify.error(error.text);
              return;
            }
            if (published) hidePending(queryClient, optimisticId);
            // said beside the form (role=alert), where the creator is looking
            if (error.retryable) {
              dispatch({ type: 'stalled', failure: { text: error.text, action: 'retry' } });
              return;
            }
            // refused: the same bytes would be refused again; the form keeps its choices
            running.current = null;
            if (previewUrl) URL.revokeObjectURL(previewUrl);
            dispatch({ type: 'refused', failure: { text: error.text, action: 'choose-another' } });
          },
        },
        resume ?? undefined,
      );
      running.current = { handle, card: published };
      if (published) addPendingPost(queryClient, published);
      onSent(optimisticId, chosen);
      dispatch({ type: 'started', status: choice, resumedFrom: resume ? resume.offset : null, size: file.size });
      if (choice === 'published') notify.info(UPLOAD_TEXTS.publishing);
      handle.start();
    },
    [picked, user, queryClient, utils, resetFields, dispatch, mounted, onSent],
  );

  // A paused (or stalled) publish leaves the feed until it sends again: its card would say it is uploading.
  const pause = useCallback(() => {
    const run = running.current;
    if (!run || phase !== 'uploading') return;
    dispatch({ type: 'paused' });
    if (run.card) hidePending(queryClient, run.card.optimisticId);
    void run.handle.pause();
  }, [phase, queryClient, dispatch]);

  const resume = useCallback(() => {
    const run = running.current;
    if (!run || (phase !== 'paused' && phase !== 'stalled')) return;
    dispatch({ type: 'resumed' });
    if (run.card) addPendingPost(queryClient, { ...run.card, uploadPercent: progress ? percentSent(progress.sent, progress.total) : 0 });
    run.handle.start();
  }, [phase, progress, queryClient, dispatch]);

  const cancel = useCallback(() => {
    const run = running.current;
    if (!run) return;
    running.current = null;
    if (run.card) dropPending(queryClient, run.card.optimisticId);
    dispatch({ type: 'canceled' });
    void run.handle.cancel();
  }, [queryClient, dispatch]);

  /** an upload is under way: a new file cannot be picked or cleared */
  const isRunning = useCallback(() => running.current !== null, []);

  return { begin, pause, resume, cancel, isRunning };
}
