import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { UPLOAD_TEXTS, type ToastText } from '../../../common/texts';
import { checkUploadFile, parseHashtags, type UploadRule } from '../../../common/uploads';
import { notify } from '../../lib/toast';
import { trpc, type CurrentUser } from '../../lib/trpc';
import { createPostUpload, discardUnfinishedUpload, findUnfinishedUpload, type PostUpload, type PostUploadError, type UnfinishedUpload } from '../../lib/upload';
import { addPendingPost } from './pending-posts';

export type PostStatusChoice = 'draft' | 'published';

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

  // Leaving the screen stops sending (the upload can be resumed later); it does not delete it.
  useEffect(
    () => () => {
      void upload.current?.pause();
      upload.current = null;
    },
    [],
  );

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
    (choice: PostStatusChoice, resume: UnfinishedUpload | null) => {
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
          optimisticId,
        },
        user.id,
        {
          onProgress: (sent, total) => setProgress({ sent, total }),
          onSuccess: ({ postId }) => {
            if (upload.current !== handle) return;
            upload.current = null;
            if (choice === 'published') {
              addPendingPost(queryClient, {
                optimisticId,
                postId,
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
              });
            } else {
              if (previewUrl) URL.revokeObjectURL(previewUrl);
              notify.success({ title: UPLOAD_TEXTS.savedAsDraft });
            }
            void utils.uploads.unfinished.invalidate();
            reset();
          },
          onError: (error: PostUploadError) => {
            if (upload.current !== handle) return;
            // said beside the form (role=alert), where the creator is looking
            setFailure({ text: error.text, action: error.retryable ? 'retry' : 'choose-another' });
            if (error.retryable) {
              setPhase('stalled');
              return;
            }
            // refused: the same bytes would be refused again; the form keeps its choices
            upload.current = null;
            if (previewUrl) URL.revokeObjectURL(previewUrl);
            setPhase('idle');
            setStatus(null);
            setProgress(null);
          },
        },
        resume ?? undefined,
      );
      upload.current = handle;
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
    (choice: PostStatusChoice) => {
      if (resumeOffer) void discardUnfinishedUpload(resumeOffer);
      begin(choice, null);
    },
    [begin, resumeOffer],
  );

  /** Continues the earlier upload of this file, with the details chosen then. */
  const resumeEarlier = useCallback(() => {
    if (!resumeOffer) return;
    begin(resumeOffer.metadata.status === 'draft' ? 'draft' : 'published', resumeOffer);
  }, [begin, resumeOffer]);

  /** Drops the earlier upload (here and on the server); the next Save or Publish starts anew. */
  const declineEarlier = useCallback(() => {
    if (resumeOffer) void discardUnfinishedUpload(resumeOffer);
    setResumeOffer(null);
  }, [resumeOffer]);

  const pause = useCallback(() => {
    if (!upload.current || phase !== 'uploading') return;
    setPhase('paused');
    void upload.current.pause();
  }, [phase]);

  const resume = useCallback(() => {
    if (!upload.current || (phase !== 'paused' && phase !== 'stalled')) return;
    setFailure(null);
    setPhase('uploading');
    upload.current.start();
  }, [phase]);

  const cancel = useCallback(() => {
    const handle = upload.current;
    if (!handle) return;
    upload.current = null;
    setFailure(null);
    setPhase('idle');
    setStatus(null);
    setProgress(null);
    void handle.cancel();
  }, []);

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
