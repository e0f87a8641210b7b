import { useCallback, useState } from 'react';
import { MULTI_FILE_TEXTS } from '../../../common/multi-file-texts';
import { SCHEDULE_TEXTS } from '../../../common/schedule';
import { UPLOAD_TEXTS } from '../../../common/texts';
import { checkUploadFile, MAX_POST_FILES, type UploadRule } from '../../../common/uploads';
import { notify } from '../../lib/toast';
import { trpc, type CurrentUser } from '../../lib/trpc';
import { createPostUpload, type PostUploadError } from './tus-upload';
import type { PostStatusChoice } from './upload-machine';
import { toPostUploadFields, type PostFields } from './upload-metadata';
import { useSentFiles } from './use-sent-files';
import { uploadToastId } from './use-upload-updates';

/** One file of a post of several, as the form lists it. */
export interface ListedFile {
  key: string;
  file: File;
  rule: UploadRule;
  /** bytes sent, in percent; null before its turn */
  percent: number | null;
  state: 'waiting' | 'uploading' | 'sent' | 'failed';
  error: string | null;
}

/**
 * A post of several files (issue 29): the files are checked one by one against their kind's
 * limits as they are added (at most MAX_POST_FILES), reordered and removed while the form is
 * open; Publish / Save / Schedule send them one after the other with tus, each as one file of
 * the same group (common/uploads.ts `group`), in the order shown. The server makes the post when
 * the last arrives; its processing is then listed with the creator's other uploads.
 */
export function useMultiUpload(user: CurrentUser | null | undefined) {
  const [files, setFiles] = useState<ListedFile[]>([]);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<PostStatusChoice | null>(null);
  const utils = trpc.useUtils();
  const { sent, start: startSent, dismiss: dismissSent } = useSentFiles();

  const add = useCallback((picked: File[]) => {
    setFiles((current) => {
      const next = [...current];
      for (const file of picked) {
        if (next.length >= MAX_POST_FILES) {
          notify.error({ title: UPLOAD_TEXTS.uploadFailed, description: MULTI_FILE_TEXTS.tooManyFiles(MAX_POST_FILES) });
          break;
        }
        const check = checkUploadFile(file);
        if (!check.ok) {
          notify.error(check.toast);
          continue;
        }
        next.push({ key: crypto.randomUUID(), file, rule: check.rule, percent: null, state: 'waiting', error: null });
      }
      return next;
    });
  }, []);

  const move = useCallback((index: number, by: -1 | 1) => {
    setFiles((current) => {
      const target = index + by;
      if (target < 0 || target >= current.length) return current;
      const next = [...current];
      [next[index], next[target]] = [next[target]!, next[index]!];
      return next;
    });
  }, []);

  const remove = useCallback((index: number) => setFiles((current) => current.filter((_, i) => i !== index)), []);
  const clear = useCallback(() => setFiles([]), []);

  const patch = (key: string, change: Partial<ListedFile>) => setFiles((current) => current.map((f) => (f.key === key ? { ...f, ...change } : f)));

  const submit = useCallback(
    async (choice: PostStatusChoice, fields: PostFields, publishAt?: Date): Promise<boolean> => {
      if (!user || busy || files.length < 2) return false;
      setBusy(true);
      setStatus(choice);
      const group = crypto.randomUUID();
      const optimisticId = crypto.randomUUID();
      // each file's processing is listed from here on (the worker may start before the last arrives)
      startSent(optimisticId, files.map((f) => f.file.name));
      try {
        for (const [index, listed] of files.entries()) {
          patch(listed.key, { state: 'uploading', percent: 0, error: null });
          await new Promise<void>((resolve, reject) => {
            createPostUpload(
              listed.file,
              toPostUploadFields(fields, listed, { status: choice, publishAt, optimisticId, group: { id: group, index, count: files.length } }),
              user.id,
              {
                onProgress: (sent, total) => patch(listed.key, { percent: total > 0 ? Math.floor((sent / total) * 100) : 0 }),
                onSuccess: () => resolve(),
                onError: (error: PostUploadError) => {
                  patch(listed.key, { state: 'failed', error: error.text.description ?? error.text.title });
                  reject(error);
                },
              },
            ).start();
          });
          patch(listed.key, { state: 'sent', percent: 100 });
        }
        // one toast per upload: 'Post published' takes this one's place when the worker is done (use-upload-updates.ts)
        notify.success(choice === 'scheduled' ? SCHEDULE_TEXTS.scheduled : { title: choice === 'draft' ? UPLOAD_TEXTS.savedAsDraft : MULTI_FILE_TEXTS.uploaded }, {
          id: uploadToastId(optimisticId),
        });
        setFiles([]);
        void utils.uploads.unfinished.invalidate();
        return true;
      } catch (error) {
        notify.error((error as PostUploadError).text ?? { title: UPLOAD_TEXTS.uploadFailed });
        dismissSent();
        return false;
      } finally {
        setBusy(false);
        setStatus(null);
      }
    },
    [user, busy, files, utils, startSent, dismissSent],
  );

  return { files, busy, status, add, move, remove, clear, submit, sent, dismissSent };
}
