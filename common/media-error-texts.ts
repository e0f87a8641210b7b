import type { ToastText } from './texts';

// Apart from common/texts.ts, so the landing page's script does not carry them.
/** The media error toasts (spec part 2 §8, word for word). */
export type LoadedMediaKind = 'image' | 'video' | 'audio';

export const MEDIA_ERROR_TEXTS = {
  loadFailed: (kind: LoadedMediaKind): ToastText => ({ title: 'Error', description: `Failed to load ${kind}. Please try again later.` }),
  playbackFailed: { title: 'Playback Error', description: 'Could not play the video/audio. Please try again.' } satisfies ToastText,
} as const;
