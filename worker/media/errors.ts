/**
 * A problem with the uploaded content itself (wrong type, damaged, too large): processing it
 * again cannot help, so the post fails with this message as its reason and the job is not
 * retried. Anything else thrown by the media wrappers is treated as transient and retried.
 */
export class MediaContentError extends Error {
  override readonly name = 'MediaContentError';
}

/** The job was asked to stop (worker shutting down): the work is handed back, not failed. */
export class MediaAbortedError extends Error {
  override readonly name = 'MediaAbortedError';
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new MediaAbortedError('aborted');
}
