import type { ToastText } from '../../../common/texts';
import type { UploadRule } from '../../../common/uploads';
import type { UnfinishedUpload } from './tus-upload';

/**
 * The upload form's state machine, pure: what the form shows follows from its state, and every
 * change is one of the events below, so the hook (use-post-upload.ts) only turns tus callbacks
 * and clicks into events and carries out their side effects (the feed's card, the toasts).
 *
 *   idle ──started──▶ uploading ──paused──▶ paused ──resumed──▶ uploading
 *                        │  └──stalled (retryable error)──▶ stalled ──resumed──┘
 *                        ├──finished──▶ idle (the form cleared for the next post)
 *                        ├──refused (the file itself)──▶ idle (the form keeps its choices)
 *   any sending phase ──canceled──▶ idle
 *
 * A file is picked, cleared or offered back (an unfinished upload of it) only while idle.
 */

/**
 * - `idle`: nothing sending (a file may be picked)
 * - `uploading`: bytes on their way
 * - `paused`: stopped by the creator; the server keeps what it has
 * - `stalled`: stopped after the automatic retries ran out; Resume tries again
 */
export type UploadPhase = 'idle' | 'uploading' | 'paused' | 'stalled';

export type PostStatusChoice = 'draft' | 'published' | 'scheduled';

export interface PickedFile {
  file: File;
  rule: UploadRule;
}

export interface UploadProgress {
  sent: number;
  total: number;
}

/**
 * Why the last upload from this form failed, shown beside the form. `retry`: the network or the
 * server failed (no answer, 5xx, 429...), and sending again may work; `choose-another`: the file
 * was refused for what it is (415, 413, 400, or the worker found its content wrong), and the same
 * bytes would be refused again.
 */
export interface UploadFailure {
  text: ToastText;
  action: 'retry' | 'choose-another';
}

export interface UploadState {
  phase: UploadPhase;
  picked: PickedFile | null;
  /** what the upload under way becomes (null while idle) */
  status: PostStatusChoice | null;
  progress: UploadProgress | null;
  /** an earlier unfinished upload of the picked file, offered to continue */
  resumeOffer: UnfinishedUpload | null;
  /** bytes the server already had when this upload was resumed after a reload */
  resumedFrom: number | null;
  failure: UploadFailure | null;
  /** counts picks: the look-up of an unfinished upload answers for the pick it was made for only */
  pick: number;
}

export type UploadEvent =
  | { type: 'picked'; file: PickedFile }
  | { type: 'unfinished-found'; pick: number; offer: UnfinishedUpload | null }
  | { type: 'cleared' }
  | { type: 'earlier-declined' }
  | { type: 'started'; status: PostStatusChoice; resumedFrom: number | null; size: number }
  | { type: 'progressed'; sent: number; total: number }
  | { type: 'paused' }
  | { type: 'resumed' }
  | { type: 'stalled'; failure: UploadFailure }
  | { type: 'refused'; failure: UploadFailure }
  | { type: 'canceled' }
  | { type: 'finished' }
  | { type: 'worker-failed'; failure: UploadFailure }
  | { type: 'failure-dismissed' };

export const INITIAL_UPLOAD: UploadState = {
  phase: 'idle',
  picked: null,
  status: null,
  progress: null,
  resumeOffer: null,
  resumedFrom: null,
  failure: null,
  pick: 0,
};

const sending = (phase: UploadPhase) => phase !== 'idle';

/** The next state; an event that does not apply in the current phase changes nothing (the same object). */
export function uploadReducer(state: UploadState, event: UploadEvent): UploadState {
  switch (event.type) {
    case 'picked':
      if (sending(state.phase)) return state;
      return { ...state, picked: event.file, failure: null, progress: null, resumeOffer: null, resumedFrom: null, pick: state.pick + 1 };
    case 'unfinished-found':
      if (event.pick !== state.pick || sending(state.phase)) return state;
      return { ...state, resumeOffer: event.offer };
    case 'cleared':
      if (sending(state.phase)) return state;
      return { ...state, picked: null, progress: null, resumeOffer: null, pick: state.pick + 1 };
    case 'earlier-declined':
      return state.resumeOffer ? { ...state, resumeOffer: null } : state;
    case 'started':
      if (sending(state.phase) || !state.picked) return state;
      return {
        ...state,
        phase: 'uploading',
        status: event.status,
        failure: null,
        resumeOffer: null,
        resumedFrom: event.resumedFrom,
        progress: { sent: event.resumedFrom ?? 0, total: event.size },
      };
    case 'progressed':
      if (!sending(state.phase)) return state;
      return { ...state, progress: { sent: event.sent, total: event.total } };
    case 'paused':
      return state.phase === 'uploading' ? { ...state, phase: 'paused' } : state;
    case 'resumed':
      return state.phase === 'paused' || state.phase === 'stalled' ? { ...state, phase: 'uploading', failure: null } : state;
    case 'stalled':
      if (!sending(state.phase)) return state;
      return { ...state, phase: 'stalled', failure: event.failure };
    case 'refused':
      if (!sending(state.phase)) return state;
      return { ...state, phase: 'idle', status: null, progress: null, failure: event.failure };
    case 'canceled':
      if (!sending(state.phase)) return state;
      return { ...state, phase: 'idle', status: null, progress: null, failure: null };
    case 'finished':
      return { ...INITIAL_UPLOAD, pick: state.pick + 1 };
    case 'worker-failed':
      return { ...state, failure: event.failure };
    case 'failure-dismissed':
      return state.failure ? { ...state, failure: null } : state;
  }
}

/** A whole percentage of the bytes sent (0 without a size). */
export const percentSent = (sent: number, total: number) => (total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 0);
