import { MEDIA_ERROR_TEXTS, type LoadedMediaKind } from '../../common/media-error-texts';
import { notify } from './toast';

/**
 * The spec's media error toasts (part 2 §8): 'Failed to load {image|video|audio}' when the bytes
 * do not arrive (a network failure, an expired or refused URL), 'Playback Error' when they arrive
 * and cannot be played. One toast per kind at a time (its id), however many tiles of a feed fail
 * together. Loaded only when something failed (media-errors.ts).
 */
export function mediaLoadFailed(kind: LoadedMediaKind): void {
  notify.error(MEDIA_ERROR_TEXTS.loadFailed(kind), { id: `media-load-${kind}` });
}

/** A <video>/<audio> error: its code tells loading from decoding. */
export function playerFailed(kind: 'video' | 'audio', code: number | undefined): void {
  if (code === MediaError.MEDIA_ERR_ABORTED) return; // the viewer left: nothing failed
  if (code === MediaError.MEDIA_ERR_DECODE) notify.error(MEDIA_ERROR_TEXTS.playbackFailed, { id: 'media-playback' });
  else mediaLoadFailed(kind);
}

/** A play() the browser refused for a reason other than autoplay rules or a pause. */
export function playRefused(error: unknown): void {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return;
  notify.error(MEDIA_ERROR_TEXTS.playbackFailed, { id: 'media-playback' });
}
