import type { MessageAttachmentDto } from '../../../common/message-dtos';
import { MESSAGE_ATTACHMENT_UPLOAD_PATH } from '../../../common/messages';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { postFile, PostFileFailed } from '../../lib/post-file';

/** A refused or failed upload, with the words to show ('File size must be less than 10MB', ...). */
export class AttachmentUploadError extends Error {}

interface UploadAnswer {
  attachment?: MessageAttachmentDto;
  error?: { message?: string };
}

export interface AttachmentUpload {
  promise: Promise<MessageAttachmentDto>;
  abort: () => void;
}

/**
 * Sends one chat attachment to the server (POST, the raw bytes, through postFile for the upload
 * progress: the bar under the pending message). The server answers at once with the attachment in
 * state 'processing'; the worker makes it safe afterwards.
 */
export function uploadAttachment(file: File, onProgress: (fraction: number) => void): AttachmentUpload {
  const sent = postFile(`${MESSAGE_ATTACHMENT_UPLOAD_PATH}?name=${encodeURIComponent(file.name)}`, file, onProgress);
  const promise = sent.promise.then(
    ({ status, body }) => {
      const answer = body as UploadAnswer | null;
      if (status < 200 || status >= 300 || !answer?.attachment) throw new AttachmentUploadError(answer?.error?.message ?? MESSAGE_TEXTS.sendFailed);
      onProgress(1);
      return answer.attachment;
    },
    (error: unknown) => {
      throw new AttachmentUploadError(error instanceof PostFileFailed && error.reason === 'network' ? MESSAGE_TEXTS.noResponse : MESSAGE_TEXTS.sendFailed);
    },
  );
  return { promise, abort: sent.abort };
}
