import { useEffect } from 'react';
import type { CurrentUser } from '../../lib/trpc';
import type { PostStatusChoice } from './upload-machine';
import { EMPTY_FIELDS } from './upload-metadata';
import { useMultiUpload } from './use-multi-upload';
import { usePostUpload } from './use-post-upload';

/**
 * The post the upload form makes, of one file (use-post-upload.ts, which can pause and resume)
 * or of several (use-multi-upload.ts): the form's fields serve both, and the post changes from
 * one kind to the other as files are added or removed.
 */
export function useNewPost(user: CurrentUser) {
  const upload = usePostUpload(user);
  const multi = useMultiUpload(user);
  const { picked: single, form } = upload;
  const several = multi.files.length > 1;
  // a post of several files: its list stands where the one file's preview was
  const picked = single ?? (several ? multi.files[0] : null);
  const busy = upload.busy || multi.busy;

  /** More files than one make a post of several: the one picked joins them, first. */
  const addFiles = (files: File[]) => {
    if (single) {
      multi.add([single.file, ...files]);
      upload.clearFile();
    } else multi.add(files);
  };
  // one file left of several: it is a post of one file again
  const { files: listed, clear: clearList } = multi;
  const { pickFile } = upload;
  useEffect(() => {
    if (listed.length !== 1 || multi.busy) return;
    clearList();
    pickFile(listed[0]!.file);
  }, [listed, clearList, pickFile, multi.busy]);

  const submit = (choice: PostStatusChoice, at?: Date) => {
    if (!several) return upload.submit(choice, at);
    // checked as one file's are (the unlock price's bounds beside its field)
    void form.submit(async (values) => {
      if (await multi.submit(choice, values, at)) form.reset(EMPTY_FIELDS);
    })();
  };

  const sendingAs = (choice: PostStatusChoice) => busy && (upload.status === choice || multi.status === choice);

  return { upload, multi, single, several, picked, busy, addFiles, submit, sendingAs };
}
