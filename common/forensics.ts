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
  /** what the post is called (the admin log names it): its title, and its creator's username for an untitled one */
  post: { title: string | null; creatorUsername: string | null };
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
    'Upload a copy of this post found elsewhere. Paid videos, and paid pictures when the buyer mark is on, carry a mark that differs for every buyer; the trace reads it and names the buyer it belongs to, or says it cannot.',
  /** what a trace can and cannot say (docs/media.md, "What it cannot say"), short */
  canSay: [
    'A paid video or picture: which buyer the copy was made for, and how sure the trace is.',
    'It still reads a copy that was re-encoded, shrunk or trimmed a little.',
  ],
  cannotSay: [
    'A free post: every copy is the same, so there is no buyer to name.',
    'A screen filmed with a camera, a clip under 20 seconds, a heavy crop or filter, or several copies mixed together.',
    'Who else the buyer passed their copy to.',
  ],
  upload: 'Upload suspected leak',
  dropHint: `A video or a picture, up to ${LEAK_MAX_BYTES / 1024 / 1024} MB. The file is deleted once it has been read.`,
  chooseFile: 'Choose a video or a picture',
  uploading: 'Uploading',
  started: { title: 'Trace started', description: 'The answer appears in the log below when it is ready.' },
  uploadFailed: 'The upload failed. Please try again.',
  invalidType: { title: 'Invalid file type', description: 'Choose a video or a picture.' },
  tooLarge: { title: 'File too large', description: `The largest file a trace takes is ${LEAK_MAX_BYTES / 1024 / 1024} MB.` },
  empty: { title: 'Empty file', description: 'That file has nothing in it.' },
  log: 'Traces of this post',
  noTraces: 'No traces yet. Upload a copy you found to start one.',
  loading: 'Loading traces',
  loadFailed: 'Failed to load traces',
  status: { queued: 'Waiting', running: 'Reading the file', done: 'Done', failed: 'Failed' },
  unmarked: 'Nothing in this post is marked: every copy of it is the same, so no buyer can be named.',
  unknown: 'No buyer could be named',
  identified: 'This copy was made for',
  failed: 'The trace could not finish. Please try again.',
  notAllowed: 'Only the creator of this post or an admin can trace a leak of it',
  /** the admin area's log (/admin/traces) */
  admin: {
    title: 'Leak traces',
    description: 'Every trace asked for, newest first: who asked, about which post, and what it found. Open one to see its post\'s log.',
    empty: 'No traces yet',
  },
} as const;
