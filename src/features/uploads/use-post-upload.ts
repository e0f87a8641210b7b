import { useCallback, useReducer } from 'react';
import { checkUploadFile, UploadFormFields } from '../../../common/uploads';
import { notify } from '../../lib/toast';
import type { CurrentUser } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';
import { isSendingInBackground } from './background-uploads';
import { discardUnfinishedUpload, findUnfinishedUpload } from './tus-upload';
import { INITIAL_UPLOAD, uploadReducer, type PostStatusChoice } from './upload-machine';
import { EMPTY_FIELDS, fieldsOfUpload } from './upload-metadata';
import { useUploadRun } from './use-upload-run';
import { useWorkerRefusal } from './use-worker-refusal';

export type { PickedFile, PostStatusChoice, UploadFailure, UploadPhase, UploadProgress } from './upload-machine';

/** The new post's fields: the form the upload form's parts register with. */
export type PostForm = ReturnType<typeof usePostUpload>['form'];

/**
 * The upload form's state and actions (spec part 2 §2, §4, §5, §8): the picked file is checked
 * at once against the spec's list and limits; Save as Draft / Publish send it with tus
 * (use-upload-run.ts) with the text, hashtags and switches; Pause / Resume; the same file picked
 * again after a reload offers to continue the earlier upload from the server's offset. What the
 * form shows is the state machine's (upload-machine.ts); the fields are a react-hook-form form on
 * the shared helper (useZodForm, UploadFormFields).
 */
export function usePostUpload(user: CurrentUser | null | undefined) {
  const [state, dispatch] = useReducer(uploadReducer, INITIAL_UPLOAD);
  const form = useZodForm(UploadFormFields, { defaultValues: EMPTY_FIELDS });
  // react-hook-form's own methods keep their identity across renders (the helper's object does not)
  const { reset: resetFields, getValues } = form;
  const { phase, resumeOffer } = state;
  const onSent = useWorkerRefusal(user, state, { getValues, reset: resetFields }, dispatch);
  const { begin, pause, resume, cancel, isRunning } = useUploadRun({ user, state, dispatch, resetFields, onSent });

  /** Checks the file at once ('Invalid file type', 'File too large'); false when refused. */
  const pickFile = useCallback(
    (file: File): boolean => {
      if (isRunning()) return false;
      const check = checkUploadFile(file);
      if (!check.ok) {
        notify.error(check.toast);
        return false;
      }
      dispatch({ type: 'picked', file: { file, rule: check.rule } });
      if (user) {
        const pick = state.pick + 1;
        void findUnfinishedUpload(file, user.id).then((found) => {
          if (found && isSendingInBackground(found.metadata.optimisticId)) return;
          dispatch({ type: 'unfinished-found', pick, offer: found });
        });
      }
      return true;
    },
    [user, state.pick, isRunning],
  );

  const clearFile = useCallback(() => {
    if (!isRunning()) dispatch({ type: 'cleared' });
  }, [isRunning]);

  /** Starts a new upload with the form's values; an earlier unfinished upload of the same file is dropped (here and on the server). */
  const submit = useCallback(
    (choice: PostStatusChoice, publishAt?: Date) =>
      void form.submit((values) => {
        if (resumeOffer) void discardUnfinishedUpload(resumeOffer);
        begin(choice, values, null, publishAt);
      })(),
    [begin, form, resumeOffer],
  );

  /** Continues the earlier upload of this file, with the details chosen then. */
  const resumeEarlier = useCallback(() => {
    if (!resumeOffer) return;
    const chosen = fieldsOfUpload(resumeOffer);
    resetFields(chosen);
    const status = resumeOffer.metadata.status;
    begin(status === 'draft' || status === 'scheduled' ? status : 'published', chosen, resumeOffer);
  }, [begin, resetFields, resumeOffer]);

  /** Drops the earlier upload (here and on the server); the next Save or Publish starts anew. */
  const declineEarlier = useCallback(() => {
    if (resumeOffer) void discardUnfinishedUpload(resumeOffer);
    dispatch({ type: 'earlier-declined' });
  }, [resumeOffer]);

  const dismissFailure = useCallback(() => dispatch({ type: 'failure-dismissed' }), []);

  return {
    ...state,
    form,
    dismissFailure,
    busy: phase !== 'idle',
    pickFile,
    clearFile,
    submit,
    resumeEarlier,
    declineEarlier,
    pause,
    resume,
    cancel,
  };
}
