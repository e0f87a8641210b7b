import { expect, test } from '@playwright/test';
import { MEDIA_ERROR_TEXTS } from '../../common/media-error-texts';
import { findPost, newPageAs, toasts } from './support/app';

/**
 * The spec's media error toasts (part 2 §8): when a picture's or a video's bytes do not arrive the
 * viewer is told, in the spec's words, rather than left with a broken box. The media route is made
 * to fail in the browser (the network, not the server: its refusals have tests of their own).
 * Posts: 'Soldering station' (maya, a free picture) and 'Groove breakdown' (leo, premium video; sam
 * subscribes to leo), read by nothing that changes them.
 */
test('a picture whose bytes do not arrive says "Failed to load image. Please try again later."', async ({ browser, request }) => {
  const { id } = await findPost(request, 'Soldering station');
  const page = await newPageAs(browser, 'lena', { at: '/auth' });
  await page.route(`**/media/${id}/**`, (route) => route.abort('failed'));
  await page.goto(`/post/${id}`);
  const toast = toasts(page).locator('[data-sonner-toast]').filter({ hasText: MEDIA_ERROR_TEXTS.loadFailed('image').description });
  await expect(toast).toBeVisible();
  await expect(toast.getByText('Error', { exact: true })).toBeVisible();
  await page.context().close();
});

test('a video whose bytes do not arrive says "Failed to load video. Please try again later."', async ({ browser, request }) => {
  const { id } = await findPost(request, 'Groove breakdown');
  const page = await newPageAs(browser, 'sam', { at: '/auth' });
  // neither the stream (its playlists and segments, once the worker has made its ladder) nor the MP4 it falls back to
  await page.route(`**/hls/${id}/**`, (route) => route.abort('failed'));
  await page.route(`**/media/${id}/original*`, (route) => route.abort('failed'));
  await page.goto(`/post/${id}`);
  await expect(toasts(page).getByText(MEDIA_ERROR_TEXTS.loadFailed('video').description ?? '', { exact: true })).toBeVisible();
  // the player gave up on the stream for the MP4, whose bytes did not come either
  const video = page.locator('video');
  await expect(video).toHaveAttribute('data-playback', 'mp4');
  expect(await video.evaluate((v: HTMLVideoElement) => v.error?.code ?? null)).not.toBeNull();
  await page.context().close();
});
