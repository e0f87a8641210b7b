import type { MessageAttachmentDto } from '../../../common/message-dtos';
import { MESSAGE_ATTACHMENT_UPLOAD_PATH } from '../../../common/messages';
import { MESSAGE_TEXTS } from '../../../common/texts';

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
 * Sends one chat attachment to the server (POST, the raw bytes): an XMLHttpRequest rather than
 * fetch, because only it reports upload progress (the bar under the pending message). The server
 * answers at once with the attachment in state 'processing'; the worker makes it safe afterwards.
 */
export function uploadAttachment(file: File, onProgress: (fraction: number) => void): AttachmentUpload {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<MessageAttachmentDto>((resolve, reject) => {
    xhr.open('POST', `${MESSAGE_ATTACHMENT_UPLOAD_PATH}?name=${encodeURIComponent(file.name)}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: UploadAnswer | null;
      try {
        body = JSON.parse(xhr.responseText) as UploadAnswer;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body?.attachment) {
        onProgress(1);
        resolve(body.attachment);
      } else {
        reject(new AttachmentUploadError(body?.error?.message ?? MESSAGE_TEXTS.sendFailed));
      }
    };
    xhr.onerror = () => reject(new AttachmentUploadError(MESSAGE_TEXTS.noResponse));
    xhr.onabort = () => reject(new AttachmentUploadError(MESSAGE_TEXTS.sendFailed));
    xhr.send(file);
  });
  return { promise, abort: () => xhr.abort() };
}
