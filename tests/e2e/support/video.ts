import { expect, type Locator } from '@playwright/test';
import { withDatabase } from './retry-reset';

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

/**
 * How a post's player settled once it has the video's first data (readyState >= 1): 'hls.js' when
 * it streams the ladder, 'mp4' when it plays the file (no ladder yet: its playlist answered 404).
 * A demo video's ladder is made by the worker after the seed, so a spec may meet either.
 */
export async function settledPlayback(video: Locator): Promise<string> {
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  const mode = await video.getAttribute('data-playback');
  expect(mode).toMatch(/^(hls\.js|mp4)$/);
  return mode!;
}

/** Waits (up to `timeoutMs`) for the worker to have made the ladder of the demo post titled `title`. */
export async function demoLadderMade(title: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const made = await withDatabase(async (client) =>
      (await client.query('select 1 from video_ladders l join posts p on p.id = l.post_id where p.title = $1', [title])).rowCount,
    );
    if (made) return;
    if (Date.now() > deadline) throw new Error(`the ladder of "${title}" was not made within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
