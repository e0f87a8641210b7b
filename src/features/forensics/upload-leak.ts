import { LEAK_MAX_BYTES, leakUploadUrl, TRACE_TEXTS } from '../../../common/forensics';
import type { ToastText } from '../../../common/texts';

/** What the browser can tell before sending (the server judges the size again, the worker the bytes). */
export function leakFileProblem(file: { type: string; size: number }): ToastText | null {
  if (!file.type.startsWith('video/') && !file.type.startsWith('image/')) return TRACE_TEXTS.invalidType;
  if (file.size > LEAK_MAX_BYTES) return TRACE_TEXTS.tooLarge;
  if (file.size === 0) return TRACE_TEXTS.empty;
  return null;
}

/** A refused or failed upload, with the server's words ('File too large', the not-allowed sentence, ...). */
export class LeakUploadError extends Error {}

/** 202 `{ id }`; a refusal `{ error: { message } }` */
interface UploadAnswer {
  id?: string;
  error?: { message?: string };
}

/**
 * Sends the suspected leak as the body of POST /forensics/posts/:postId/traces (same origin, so
 * the session cookie and the Origin the CSRF guard checks go with it): an XMLHttpRequest rather
 * than fetch, because only it reports upload progress (0..1). Resolves with the trace's id once
 * the server has stored the file (202); the verdict comes later, in forensics.traces.
 */
export function uploadLeak(postId: string, file: File, onProgress: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', leakUploadUrl(postId));
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: UploadAnswer | null = null;
      try {
        body = JSON.parse(xhr.responseText) as UploadAnswer;
      } catch {
        // not JSON (a proxy's page): the generic words below
      }
      if (xhr.status === 202 && body?.id) {
        onProgress(1);
        resolve(body.id);
      } else {
        reject(new LeakUploadError(body?.error?.message ?? TRACE_TEXTS.uploadFailed));
      }
    };
    xhr.onerror = () => reject(new LeakUploadError(TRACE_TEXTS.uploadFailed));
    xhr.onabort = () => reject(new LeakUploadError(TRACE_TEXTS.uploadFailed));
    xhr.send(file);
  });
}
