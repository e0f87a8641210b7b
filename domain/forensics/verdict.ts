/**
 * What a leak trace answers. Shared by the video tracer (A/B segment mark) and the picture
 * tracer (per-buyer picture mark), so the Trace a leak screen shows one shape for both.
 */
export type TraceVerdict =
  /** The post is free (or the upload is of an unmarked file): nothing to read. */
  | { kind: 'unmarked' }
  /** One buyer matched; confidence in [0, 1]; evidence says what matched, for the log. */
  | { kind: 'identified'; userId: string; confidence: number; evidence: string }
  /** The mark could not be read, or no buyer matched well enough. */
  | { kind: 'unknown'; reason: string };
