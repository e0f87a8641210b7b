import { DetailedError, type HttpRequest, type HttpResponse } from 'tus-js-client';

/**
 * When the web app's tus client (tus-upload.ts) sends a failed request again. Framework-free and
 * without the browser's globals, so the process-level tests drive tus-js-client with it too.
 *
 * - Any failure a retry may cure (no answer, 5xx, 409, 423) is retried after each of
 *   UPLOAD_RETRY_DELAYS_MS, as tus-js-client does by default; the counter starts again whenever
 *   bytes got through.
 * - 503 is the server saying it is temporarily without something it needs (Redis during an
 *   outage: the upload's lock). Such an upload keeps being retried, every 10 s for about five
 *   minutes more, instead of failing after the first 40 s.
 * - A HEAD (where is the upload?) answered 5xx is turned into a retryable error: tus-js-client
 *   would otherwise take it for a lost upload and start the file again as a new one, leaving the
 *   bytes already sent behind.
 */

/** Waits before each automatic retry of a failed request (then the upload stops with an error). */
export const UPLOAD_RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000, 10_000, 20_000];
/** Further waits while the server answers 503 (temporarily unavailable): 5 minutes more. */
export const UNAVAILABLE_RETRY_DELAYS_MS: number[] = Array.from({ length: 30 }, () => 10_000);

/** What tus-js-client is given: every wait; `shouldRetryUpload` decides which may be used. */
export const UPLOAD_RETRY_SCHEDULE_MS = [...UPLOAD_RETRY_DELAYS_MS, ...UNAVAILABLE_RETRY_DELAYS_MS];

/** A HEAD answered with a server error, made an error so it is retried (see above). */
export class UnavailableUploadAnswer extends Error {
  constructor(readonly status: number) {
    super(`tus: the server answered ${status} when asked where the upload stands`);
  }
}

/** tus-js-client's `onAfterResponse`: refuses a HEAD's 5xx (a retry follows) instead of starting anew. */
export function refuseUnavailableHead(req: HttpRequest, res: HttpResponse): void {
  if (req.getMethod() === 'HEAD' && res.getStatus() >= 500) throw new UnavailableUploadAnswer(res.getStatus());
}

/** The status that failed the request: the answer's, or a refused HEAD's; null when there was none. */
export function failedStatus(error: Error): number | null {
  if (!(error instanceof DetailedError)) return null;
  const answered = error.originalResponse?.getStatus();
  if (answered) return answered;
  return error.causingError instanceof UnavailableUploadAnswer ? error.causingError.status : null;
}

const online = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** tus-js-client's `onShouldRetry`, with UPLOAD_RETRY_SCHEDULE_MS as its `retryDelays`. */
export function shouldRetryUpload(error: Error, retryAttempt: number): boolean {
  const status = failedStatus(error);
  if (status === 503) return true;
  if (retryAttempt >= UPLOAD_RETRY_DELAYS_MS.length || !online()) return false;
  return status === null || status >= 500 || status === 409 || status === 423;
}
