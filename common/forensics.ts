import { z } from 'zod';
import { postId } from './ids';

/**
 * Leak traces (issue 49 item 5, docs/media.md): what the Trace a leak screen shows and sends.
 */

export const LEAK_TRACE_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type LeakTraceStatus = (typeof LEAK_TRACE_STATUSES)[number];

/** The largest suspected leak accepted (a few minutes of video is plenty; the trace reads at most LEAK_MAX_SECONDS of it). */
export const LEAK_MAX_BYTES = 300 * 1024 * 1024;
/** The trace reads this much of a leak at most. */
export const LEAK_MAX_SECONDS = 600;

/** The upload of a suspected leak for a post (the screen sends the file as the body). */
export const leakUploadUrl = (postId: string) => `/forensics/posts/${postId}/traces`;

/** One trace as its post's creator or an admin sees it. */
export interface LeakTraceDto {
  id: string;
  postId: string;
  status: LeakTraceStatus;
  createdAt: Date;
  finishedAt: Date | null;
  /** the requester's username (null: account deleted) */
  requestedBy: string | null;
  fileSha256: string;
  fileBytes: number;
  /** what it answered, once done */
  verdict:
    | { kind: 'unmarked' }
    | { kind: 'identified'; buyer: { id: string; username: string | null; displayName: string | null }; confidence: number; evidence: string }
    | { kind: 'unknown'; reason: string }
    | null;
}

/** The screen's words. */
export const TRACE_TEXTS = {
  title: 'Trace a leak',
  intro:
    'Upload a copy of this post found elsewhere. Paid videos carry an invisible mark that differs for every buyer; the trace reads it and names the buyer it belongs to, or says it cannot.',
  upload: 'Upload suspected leak',
  unmarked: 'Nothing is marked: this post is free, so every copy of it is the same.',
  failed: 'The trace could not finish. Please try again.',
  notAllowed: 'Only the creator of this post or an admin can trace a leak of it',
} as const;

/** forensics.traces: a post's traces */
export const TracesInput = z.object({ postId });
export type TracesInput = z.output<typeof TracesInput>;
