import type { SyntheticEvent } from 'react';

/**
 * The error handlers of every <img>, <video> and <audio> of posts and messages. The toasts and
 * their words load only when something failed: the feed's cards sit in the landing page's script,
 * which has a budget (tests/e2e/bundle-budget.spec.ts).
 */
const toasts = () => import('./media-error-toasts');

export const onImageError = () => void toasts().then((t) => t.mediaLoadFailed('image'));

export function onPlayerError(kind: 'video' | 'audio') {
  return (event: SyntheticEvent<HTMLMediaElement>) => {
    const code = event.currentTarget.error?.code;
    void toasts().then((t) => t.playerFailed(kind, code));
  };
}

export const onPlayRefused = (error: unknown) => void toasts().then((t) => t.playRefused(error));
