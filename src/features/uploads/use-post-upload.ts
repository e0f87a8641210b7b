import { SCHEDULE_TEXTS } from '../../../common/schedule';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { UPLOAD_TEXTS } from '../../../common/texts';
import { checkUploadFile, parseHashtags, UploadFormFields } from '../../../common/uploads';
import { notify } from '../../lib/toast';
import { trpc, type CurrentUser } from '../../lib/trpc';
import { createPostUpload, discardUnfinishedUpload, findUnfinishedUpload, type PostUpload, type PostUploadError, type UnfinishedUpload } from './tus-upload';
import { useZodForm } from '../../lib/use-zod-form';
import { holdTab, isSendingInBackground, releaseTab } from './background-uploads';
import { addPendingPost, dropPending, hidePending, setUploadPercent, type PendingPost } from './pending-posts';
import { INITIAL_UPLOAD, percentSent, uploadReducer, type PostStatusChoice } from './upload-machine';
import { EMPTY_FIELDS, fieldsOfUpload, toPostUploadFields, type PostFields } from './upload-metadata';

export type { PickedFile, PostStatusChoice, UploadFailure, UploadPhase, UploadProgress } from './upload-machine';

const isBlank = (fields: PostFields) =>
  !fields.title.trim() && !fields.postText.trim() && !fields.hashtags.trim() && !fields.isPaidContent && !fields.isNsfw && !fields.payPerView;

/** The upload under way: its tus handle, and its feed card when it is a publish. */
interface Running {
  handle: PostUpload;
  card: PendingPost | null;
}

/**
 * The upload form's state and actions (spec part 2 §2, §4, §5, §8): the picked file is checked
 * at once against the spec's list and limits; Save as Draft / Publish send it with tus
 * (tus-upload.ts) with the text, hashtags and switches; Pause / Resume; the same file picked again
 * after a reload offers to continue the earlier upload from the server's offset. What the form
 * shows is the state machine's (upload-machine.ts); the fields are a react-hook-form form on the
 * shared helper (useZodForm, UploadFormFields); this hook carries out the effects: tus, the
 * feed's card, the toasts.
 */
export function usePostUpload(user: CurrentUser | null | undefined) {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const [state, dispatch] = useReducer(uploadReducer, INITIAL_UPLOAD);
  const form = useZodForm(UploadFormFields, { defaultValues: EMPTY_FIELDS });
  // react-hook-form's own methods keep their identity across renders (the helper's object does not)
  const { reset: resetFields, getValues: fieldValues } = form;
  const running = useRef<Running | null>(null);
  /** What the last upload was sent with, until the worker settles it. */
  const sent = useRef<{ optimisticId: string; fields: PostFields } | null>(null);
  // the list the upload screen shows; post:failed (and every finish) refreshes it
  const unfinished = trpc.uploads.unfinished.useQuery(undefined, { enabled: !!user });
  const phaseNow = useRef(state.phase);
  phaseNow.current = state.phase;
  const mounted = useRef(true);
  const { phase, picked, resumeOffer, progress } = state;

  // Leaving the screen stops a draft's upload or a paused one (it can be resumed later; it is not
  // deleted); a publish whose bytes are travelling goes on, shown by its card in the feed.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      const run = running.current;
      if (run?.card && phaseNow.current === 'uploading') {
        holdTab(run.card.optimisticId);
        return;
      }
      void run?.handle.pause();
      running.current = null;
      if (run?.card) dropPending(queryClient, run.card.optimisticId);
    };
  }, [queryClient]);

  // Closing or reloading the tab while bytes are on their way asks first (a paused upload is safe:
  // the same file picked again continues it).
  useEffect(() => {
    if (phase !== 'uploading') return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [phase]);

  /** Checks the file at once ('Invalid file type', 'File too large'); false when refused. */
  const pickFile = useCallback(
    (file: File): boolean => {
      if (running.current) return false;
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
    [user, state.pick],
  );

  const clearFile = useCallback(() => {
    if (!running.current) dispatch({ type: 'cleared' });
  }, []);

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
      const startedAt = resume ? resume.offset : 0;
      // a publish shows in the feed at once: 'Uploading N%' now, 'Processing...' once the bytes are in
      const published: PendingPost | null =
        choice === 'published'
          ? {
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
            }
          : null;
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
      sent.current = { optimisticId, fields: chosen };
      dispatch({ type: 'started', status: choice, resumedFrom: resume ? resume.offset : null, size: file.size });
      if (choice === 'published') notify.info(UPLOAD_TEXTS.publishing);
      handle.start();
    },
    [picked, user, queryClient, utils, resetFields],
  );

  // The worker refused the file the form sent (its content is not what its name says, it is
  // damaged...): the form had been cleared for the next post, so the creator's work comes back,
  // with the reason, unless they have started on another post meanwhile. Read from the list, not
  // the post:failed event alone: a small file can fail before its upload's last response is in.
  const failedRow = unfinished.data?.find((row) => row.status === 'failed' && !!sent.current && row.optimisticId === sent.current.optimisticId);
  useEffect(() => {
    const last = sent.current;
    if (!failedRow || !last || phase !== 'idle') return;
    sent.current = null;
    if (picked) return;
    if (isBlank(fieldValues())) resetFields(last.fields);
    const reason = failedRow.failureReason ?? UPLOAD_TEXTS.failedToUpload;
    dispatch({ type: 'worker-failed', failure: { text: { title: UPLOAD_TEXTS.uploadFailed, description: reason }, action: 'choose-another' } });
  }, [failedRow, phase, picked, fieldValues, resetFields]);

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

  // A paused (or stalled) publish leaves the feed until it sends again: its card would say it is uploading.
  const pause = useCallback(() => {
    const run = running.current;
    if (!run || phase !== 'uploading') return;
    dispatch({ type: 'paused' });
    if (run.card) hidePending(queryClient, run.card.optimisticId);
    void run.handle.pause();
  }, [phase, queryClient]);

  const resume = useCallback(() => {
    const run = running.current;
    if (!run || (phase !== 'paused' && phase !== 'stalled')) return;
    dispatch({ type: 'resumed' });
    if (run.card) addPendingPost(queryClient, { ...run.card, uploadPercent: progress ? percentSent(progress.sent, progress.total) : 0 });
    run.handle.start();
  }, [phase, progress, queryClient]);

  const cancel = useCallback(() => {
    const run = running.current;
    if (!run) return;
    running.current = null;
    if (run.card) dropPending(queryClient, run.card.optimisticId);
    dispatch({ type: 'canceled' });
    void run.handle.cancel();
  }, [queryClient]);

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
