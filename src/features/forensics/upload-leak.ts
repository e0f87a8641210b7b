import { LEAK_MAX_BYTES, leakUploadUrl, TRACE_TEXTS } from '../../../common/forensics';
import type { ToastText } from '../../../common/texts';
import { postFile, type PostFileAnswer } from '../../lib/post-file';

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
 * Sends the suspected leak as the body of POST /forensics/posts/:postId/traces (postFile: same
 * origin, with upload progress 0..1). Resolves with the trace's id once the server has stored the
 * file (202); the verdict comes later, in forensics.traces.
 */
export async function uploadLeak(postId: string, file: File, onProgress: (fraction: number) => void): Promise<string> {
  let answer: PostFileAnswer;
  try {
    answer = await postFile(leakUploadUrl(postId), file, onProgress).promise;
  } catch {
    throw new LeakUploadError(TRACE_TEXTS.uploadFailed);
  }
  const body = answer.body as UploadAnswer | null;
  if (answer.status !== 202 || !body?.id) throw new LeakUploadError(body?.error?.message ?? TRACE_TEXTS.uploadFailed);
  onProgress(1);
  return body.id;
}
