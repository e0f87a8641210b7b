import { SCHEDULE_TEXTS } from '../../../common/schedule';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { UPLOAD_TEXTS, type ToastText } from '../../../common/texts';
import { checkUploadFile, parseHashtags, type UploadRule } from '../../../common/uploads';
import { notify } from '../../lib/toast';
import { trpc, type CurrentUser } from '../../lib/trpc';
import { createPostUpload, discardUnfinishedUpload, findUnfinishedUpload, type PostUpload, type PostUploadError, type UnfinishedUpload } from '../../lib/upload';
import { addPendingPost, dropPending, hidePending, setUploadPercent, type PendingPost } from './pending-posts';

export type PostStatusChoice = 'draft' | 'published' | 'scheduled';

export interface PostFields {
  title: string;
  postText: string;
  hashtags: string;
  isPaidContent: boolean;
  isNsfw: boolean;
}

export const EMPTY_FIELDS: PostFields = { title: '', postText: '', hashtags: '', isPaidContent: false, isNsfw: false };

export interface PickedFile {
  file: File;
  rule: UploadRule;
}

/**
 * - `idle`: nothing sending (a file may be picked)
 * - `uploading`: bytes on their way
 * - `paused`: stopped by the creator; the server keeps what it has
 * - `stalled`: stopped after the automatic retries ran out; Resume tries again
 */
export type UploadPhase = 'idle' | 'uploading' | 'paused' | 'stalled';

/**
 * Why the last upload from this form failed, shown beside the form. `retry`: the network or the
 * server failed (no answer, 5xx, 429...), and sending again may work; `choose-another`: the file
 * was refused for what it is (415, 413, 400, or the worker found its content wrong), and the same
 * bytes would be refused again.
 */
export interface UploadFailure {
  text: ToastText;
  action: 'retry' | 'choose-another';
}

export interface UploadProgress {
  sent: number;
  total: number;
}

function newOptimisticId(): string {
  return crypto.randomUUID();
}

const flag = (value: string | undefined) => value === 'true' || value === '1';

const percentSent = (sent: number, total: number) => (total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 0);

// ---- published uploads that go on after their form is gone ------------------------------------

/**
 * A publish whose bytes are on their way when the creator leaves /create keeps going (its card in
 * the feed says 'Uploading N%'); closing the tab meanwhile asks first. Such an upload is not offered
 * back to the form as unfinished while it is still sending.
 */
const sendingInBackground = new Set<string>();
const askBeforeClosing = (event: BeforeUnloadEvent) => event.preventDefault();

function holdTab(optimisticId: string): void {
  sendingInBackground.add(optimisticId);
  if (sendingInBackground.size === 1) window.addEventListener('beforeunload', askBeforeClosing);
}

function releaseTab(optimisticId: string): void {
  if (sendingInBackground.delete(optimisticId) && sendingInBackground.size === 0) window.removeEventListener('beforeunload', askBeforeClosing);
}

const isBlank = (fields: PostFields) => !fields.title.trim() && !fields.postText.trim() && !fields.hashtags.trim() && !fields.isPaidContent && !fields.isNsfw;

/**
 * The upload form's state and actions (spec part 2 §2, §4, §5, §8): the picked file is checked
 * at once against the spec's list and limits; Save as Draft / Publish send it with tus (src/lib/
 * upload.ts) with the text, hashtags and switches; Pause / Resume; the same file picked again
 * after a reload offers to continue the earlier upload from the server's offset.
 */
export function usePostUpload(user: CurrentUser | null | undefined) {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const [picked, setPicked] = useState<PickedFile | null>(null);
  const [fields, setFields] = useState<PostFields>(EMPTY_FIELDS);
  const [phase, setPhase] = useState<UploadPhase>('idle');
  const [status, setStatus] = useState<PostStatusChoice | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [resumeOffer, setResumeOffer] = useState<UnfinishedUpload | null>(null);
  const [resumedFrom, setResumedFrom] = useState<number | null>(null);
  const [failure, setFailure] = useState<UploadFailure | null>(null);
  const upload = useRef<PostUpload | null>(null);
  /** What the last upload was sent with, until the worker settles it. */
  const sent = useRef<{ optimisticId: string; fields: PostFields } | null>(null);
  // the list the upload screen shows; post:failed (and every finish) refreshes it
  const unfinished = trpc.uploads.unfinished.useQuery(undefined, { enabled: !!user });
  const pickToken = useRef(0);
  /** the feed card of the publish under way (null for a draft or when none) */
  const card = useRef<PendingPost | null>(null);
  const phaseNow = useRef<UploadPhase>('idle');
  phaseNow.current = phase;
  const mounted = useRef(true);

  // Leaving the screen stops a draft's upload or a paused one (it can be resumed later; it is not
  // deleted); a publish whose bytes are travelling goes on, shown by its card in the feed.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      const handle = upload.current;
      const published = card.current;
      if (handle && published && phaseNow.current === 'uploading') {
        holdTab(published.optimisticId);
        return;
      }
      void handle?.pause();
      upload.current = null;
      if (published) dropPending(queryClient, published.optimisticId);
      card.current = null;
    };
  }, [queryClient]);

  // Closing or reloading the tab while bytes are on their way asks first (a paused upload is safe:
  // the same file picked again continues it).
  useEffect(() => {
    if (phase !== 'uploading') return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [phase]);

  const reset = useCallback(() => {
    pickToken.current += 1;
    upload.current = null;
    setPicked(null);
    setFields(EMPTY_FIELDS);
    setPhase('idle');
    setStatus(null);
    setProgress(null);
    setResumeOffer(null);
    setResumedFrom(null);
    setFailure(null);
  }, []);

  /** Checks the file at once ('Invalid file type', 'File too large'); false when refused. */
  const pickFile = useCallback(
    (file: File): boolean => {
      if (upload.current) return false;
      const check = checkUploadFile(file);
      if (!check.ok) {
        notify.error(check.toast);
        return false;
      }
      const token = ++pickToken.current;
      setFailure(null);
      setPicked({ file, rule: check.rule });
      setProgress(null);
      setResumeOffer(null);
      setResumedFrom(null);
      if (user) {
        void findUnfinishedUpload(file, user.id).then((found) => {
          if (found && sendingInBackground.has(found.metadata.optimisticId ?? '')) return;
          if (token === pickToken.current) setResumeOffer(found);
        });
      }
      return true;
    },
    [user],
  );

  const clearFile = useCallback(() => {
    if (upload.current) return;
    pickToken.current += 1;
    setPicked(null);
    setProgress(null);
    setResumeOffer(null);
  }, []);

  const showWorkerFailure = useCallback((kept: PostFields, reason: string) => {
    setFields((now) => (isBlank(now) ? kept : now));
    setFailure({ text: { title: UPLOAD_TEXTS.uploadFailed, description: reason }, action: 'choose-another' });
  }, []);

  const begin = useCallback(
    (choice: PostStatusChoice, resume: UnfinishedUpload | null, publishAt?: Date) => {
      if (!picked || upload.current) return;
      if (!user) {
        notify.error({ title: 'Error', description: UPLOAD_TEXTS.signInRequired });
        return;
      }
      const { file, rule } = picked;
      const meta = resume?.metadata;
      const chosen: PostFields = meta
        ? { title: meta.title ?? '', postText: meta.postText ?? '', hashtags: meta.hashtags ?? '', isPaidContent: flag(meta.isPaidContent), isNsfw: flag(meta.isNsfw) }
        : fields;
      const optimisticId = meta?.optimisticId || newOptimisticId();
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

      const handle = createPostUpload(
        file,
        {
          filetype: file.type || rule.contentType,
          title: chosen.title.trim() || undefined,
          postText: chosen.postText.trim() || undefined,
          hashtags: chosen.hashtags.trim() || undefined,
          isPaidContent: chosen.isPaidContent,
          isNsfw: chosen.isNsfw,
          status: choice,
          publishAt: choice === 'scheduled' ? publishAt : undefined,
          optimisticId,
        },
        user.id,
        {
          onProgress: (sentBytes, total) => {
            setProgress({ sent: sentBytes, total });
            if (published) setUploadPercent(queryClient, optimisticId, percentSent(sentBytes, total));
          },
          onSuccess: ({ postId }) => {
            if (upload.current !== handle) return;
            upload.current = null;
            card.current = null;
            releaseTab(optimisticId);
            if (published) {
              addPendingPost(queryClient, { ...published, postId, uploadPercent: null, uploadedAt: new Date() });
            } else {
              if (previewUrl) URL.revokeObjectURL(previewUrl);
              notify.success(choice === 'scheduled' ? SCHEDULE_TEXTS.scheduled : { title: UPLOAD_TEXTS.savedAsDraft });
            }
            void utils.uploads.unfinished.invalidate();
            reset();
          },
          onError: (error: PostUploadError) => {
            if (upload.current !== handle) return;
            if (!mounted.current) {
              // it went on after its form was gone: the card goes, a toast says why (the upload
              // is listed as unfinished on /create, to resume or drop)
              upload.current = null;
              releaseTab(optimisticId);
              dropPending(queryClient, optimisticId);
              notify.error(error.text);
              return;
            }
            // said beside the form (role=alert), where the creator is looking
            setFailure({ text: error.text, action: error.retryable ? 'retry' : 'choose-another' });
            if (error.retryable) {
              if (published) hidePending(queryClient, optimisticId);
              setPhase('stalled');
              return;
            }
            // refused: the same bytes would be refused again; the form keeps its choices
            upload.current = null;
            card.current = null;
            if (published) hidePending(queryClient, optimisticId);
            if (previewUrl) URL.revokeObjectURL(previewUrl);
            setPhase('idle');
            setStatus(null);
            setProgress(null);
          },
        },
        resume ?? undefined,
      );
      upload.current = handle;
      card.current = published;
      if (published) addPendingPost(queryClient, published);
      sent.current = { optimisticId, fields: chosen };
      setFailure(null);
      if (meta) setFields(chosen);
      setStatus(choice);
      setPhase('uploading');
      setResumeOffer(null);
      setResumedFrom(resume ? resume.offset : null);
      setProgress({ sent: startedAt, total: file.size });
      if (choice === 'published') notify.info(UPLOAD_TEXTS.publishing);
      handle.start();
    },
    [picked, user, fields, queryClient, utils, reset],
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
    showWorkerFailure(last.fields, failedRow.failureReason ?? UPLOAD_TEXTS.failedToUpload);
  }, [failedRow, phase, picked, showWorkerFailure]);

  /** Starts a new upload; an earlier unfinished upload of the same file is dropped (here and on the server). */
  const submit = useCallback(
    (choice: PostStatusChoice, publishAt?: Date) => {
      if (resumeOffer) void discardUnfinishedUpload(resumeOffer);
      begin(choice, null, publishAt);
    },
    [begin, resumeOffer],
  );

  /** Continues the earlier upload of this file, with the details chosen then. */
  const resumeEarlier = useCallback(() => {
    if (!resumeOffer) return;
    const chosen = resumeOffer.metadata.status;
    begin(chosen === 'draft' || chosen === 'scheduled' ? chosen : 'published', resumeOffer);
  }, [begin, resumeOffer]);

  /** Drops the earlier upload (here and on the server); the next Save or Publish starts anew. */
  const declineEarlier = useCallback(() => {
    if (resumeOffer) void discardUnfinishedUpload(resumeOffer);
    setResumeOffer(null);
  }, [resumeOffer]);

  // A paused (or stalled) publish leaves the feed until it sends again: its card would say it is uploading.
  const pause = useCallback(() => {
    if (!upload.current || phase !== 'uploading') return;
    setPhase('paused');
    if (card.current) hidePending(queryClient, card.current.optimisticId);
    void upload.current.pause();
  }, [phase, queryClient]);

  const resume = useCallback(() => {
    if (!upload.current || (phase !== 'paused' && phase !== 'stalled')) return;
    setFailure(null);
    setPhase('uploading');
    if (card.current) addPendingPost(queryClient, { ...card.current, uploadPercent: progress ? percentSent(progress.sent, progress.total) : 0 });
    upload.current.start();
  }, [phase, progress, queryClient]);

  const cancel = useCallback(() => {
    const handle = upload.current;
    if (!handle) return;
    upload.current = null;
    if (card.current) dropPending(queryClient, card.current.optimisticId);
    card.current = null;
    setFailure(null);
    setPhase('idle');
    setStatus(null);
    setProgress(null);
    void handle.cancel();
  }, [queryClient]);

  return {
    picked,
    fields,
    setFields,
    phase,
    status,
    progress,
    resumeOffer,
    resumedFrom,
    failure,
    dismissFailure: () => setFailure(null),
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
