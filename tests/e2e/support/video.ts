import type { Locator } from '@playwright/test';

/** Plays the <video> muted, then seeks to `at` seconds and waits for the seek (or the player's error). */
export function playAndSeek(video: Locator, at = 2.5) {
  return video.evaluate(async (v: HTMLVideoElement, to: number) => {
    v.muted = true;
    await v.play();
    await new Promise((r) => setTimeout(r, 400));
    const seeked = new Promise<void>((resolve, reject) => {
      v.addEventListener('seeked', () => resolve(), { once: true });
      v.addEventListener('error', () => reject(new Error(`media error ${v.error?.code}`)), { once: true });
    });
    v.currentTime = to;
    await seeked;
    return { error: v.error?.code ?? null, time: v.currentTime, duration: v.duration, readyState: v.readyState };
  }, at);
}
