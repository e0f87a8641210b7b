import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { flatPng, makeVideo } from '../helpers/media-fixtures';
import { newPageAs, toasts } from './support/app';
import { withDatabase } from './support/retry-reset';
import { fileInput, fixtureDir, form, publishButton, waitForUploadedPostId, writeFixture } from './support/uploads';

const SHOTS = '/work/shots/multi';

/** A swipe by touch events, as a phone's finger makes them (the carousel reads touchstart/touchend). */
async function swipeLeft(target: Locator) {
  await target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const y = box.top + box.height / 2;
    const touch = (x: number) => new Touch({ identifier: 1, target: element, clientX: x, clientY: y });
    element.dispatchEvent(new TouchEvent('touchstart', { bubbles: true, touches: [touch(box.right - 20)], changedTouches: [touch(box.right - 20)] }));
    element.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [touch(box.left + 20)] }));
  });
}

const listedNames = (page: Page) => page.getByTestId('post-files').getByRole('listitem').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')));

/**
 * Several files in one post (issue 29 item 2): noah (public) picks three photos at once, adds a
 * short video, moves the first photo one place later, publishes; a fan on a 375 px phone opens
 * the post and swipes to '2 / 4', which is the photo moved there; arrows and the keyboard turn it
 * on a computer.
 */
test('a creator posts three photos and a video as one post, reordered; a fan swipes through them on a phone', async ({ browser }) => {
  test.setTimeout(120_000);
  await mkdir(SHOTS, { recursive: true });
  const id = Date.now().toString(36);
  const dir = await fixtureDir();
  const photos = await Promise.all(
    (['#b03a2e', '#1e8449', '#2874a6'] as const).map(async (colour, i) => writeFixture(dir, `photo${i + 1}-${id}.png`, await flatPng(480 + i * 40, 360, colour))),
  );
  const video = await makeVideo(dir, { name: `clip-${id}.mp4`, seconds: 2, width: 320, height: 240, faststart: true });
  const noah = await newPageAs(browser, 'noah', { at: '/create' });

  await fileInput(noah).setInputFiles(photos);
  await noah.getByLabel('Add files').setInputFiles(video);
  expect(await listedNames(noah)).toEqual([
    `File 1 of 4: photo1-${id}.png`,
    `File 2 of 4: photo2-${id}.png`,
    `File 3 of 4: photo3-${id}.png`,
    `File 4 of 4: clip-${id}.mp4`,
  ]);
  await noah.getByRole('button', { name: `Move later: photo1-${id}.png` }).click();
  expect(await listedNames(noah)).toEqual([
    `File 1 of 4: photo2-${id}.png`,
    `File 2 of 4: photo1-${id}.png`,
    `File 3 of 4: photo3-${id}.png`,
    `File 4 of 4: clip-${id}.mp4`,
  ]);
  await form(noah).getByLabel('Post text').fill(`Four of them ${id}`);
  await noah.screenshot({ path: `${SHOTS}/upload-form-several-1280.png`, fullPage: true });
  await noah.setViewportSize({ width: 375, height: 900 });
  await noah.screenshot({ path: `${SHOTS}/upload-form-several-375.png`, fullPage: true });
  await noah.setViewportSize({ width: 1280, height: 800 });

  const postIdPromise = waitForUploadedPostId(noah);
  await publishButton(noah).click();
  const postId = await postIdPromise;
  // one toast for the upload: 'Uploaded - ...' until the worker is done, then 'Post published' in its place (issue 47)
  await expect(toasts(noah).getByText(/^(Uploaded - your post is processing|Post published)$/)).toBeVisible();
  await expect(async () => {
    const status = await withDatabase(async (c) => (await c.query('select status from posts where id = $1', [postId])).rows[0]?.status);
    expect(status).toBe('published');
  }).toPass({ timeout: 60_000 });

  const fan = await newPageAs(browser, 'fan33@demo.test', { at: `/post/${postId}`, viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });
  const carousel = fan.getByTestId('post-carousel');
  await expect(carousel.getByTestId('carousel-position')).toHaveText('1 / 4');
  await expect(carousel.locator('img').first()).toHaveAttribute('src', `/media/${postId}/web`);
  await swipeLeft(carousel);
  await expect(carousel.getByTestId('carousel-position')).toHaveText('2 / 4');
  // the photo moved to second place is second
  await expect(carousel.locator('img').first()).toHaveAttribute('src', `/media/${postId}/1/web`);
  const second = await fan.request.get(`/media/${postId}/1/web`);
  expect(second.status()).toBe(200);
  await fan.screenshot({ path: `${SHOTS}/post-carousel-375.png` });

  // on a computer: the arrow, then the keyboard, to the video
  await fan.setViewportSize({ width: 1280, height: 800 });
  await carousel.getByRole('button', { name: 'Next file' }).click();
  await expect(carousel.getByTestId('carousel-position')).toHaveText('3 / 4');
  await carousel.focus();
  await fan.keyboard.press('ArrowRight');
  await expect(carousel.getByTestId('carousel-position')).toHaveText('4 / 4');
  // the fourth file's video: streamed once its ladder is made (docs/media.md), its MP4 until then
  const player = carousel.locator('video');
  await expect(player).toHaveAttribute('data-playback', /^(hls\.js|mp4)$/);
  const playing = (await player.getAttribute('data-playback')) === 'mp4' ? await player.getAttribute('src') : await player.getAttribute('data-stream');
  expect([`/media/${postId}/3/original`, `/hls/${postId}/3/master.m3u8`]).toContain(playing);
  await fan.screenshot({ path: `${SHOTS}/post-carousel-1280.png` });

  // the creator's media grid shows the first file with the count
  await noah.goto('/noah?view=media');
  const tile = noah.locator(`a[href="/post/${postId}"]`).filter({ has: noah.getByTestId('file-count') });
  await expect(tile.getByTestId('file-count')).toHaveText('4 files');
  await tile.scrollIntoViewIfNeeded();
  await noah.screenshot({ path: `${SHOTS}/profile-media-grid-1280.png` });
  await noah.setViewportSize({ width: 375, height: 800 });
  await tile.scrollIntoViewIfNeeded();
  await noah.screenshot({ path: `${SHOTS}/profile-media-grid-375.png` });
});

/** The media vault (issue 29 item 3): noah picks two files he uploaded before and posts them again, no upload. */
test('a creator builds a post from two vault files without uploading', async ({ browser }) => {
  await mkdir(SHOTS, { recursive: true });
  const id = Date.now().toString(36);
  const noah = await newPageAs(browser, 'noah', { at: '/create' });
  await noah.getByRole('link', { name: 'Media vault' }).click();
  await expect(noah).toHaveURL(/\/create\/vault$/);
  const grid = noah.getByRole('list', { name: 'Media vault' });
  await expect(grid.getByRole('button').first()).toBeVisible();
  // the kind filter narrows the grid to pictures; two files of any kind make the post
  await noah.getByLabel('Kind').selectOption('image');
  await expect(grid.getByRole('button', { name: /\.(jpg|jpeg|png|webp)$/ }).first()).toBeVisible();
  await noah.getByLabel('Kind').selectOption('');
  // each tile also has its Delete button
  const tiles = grid.getByRole('button', { name: /^Select / });
  await expect(tiles.nth(1)).toBeVisible();
  let uploads = 0;
  noah.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/uploads')) uploads += 1;
  });
  await tiles.nth(1).click();
  await tiles.nth(0).click();
  await expect(tiles.nth(1)).toHaveAttribute('aria-pressed', 'true');
  await expect(noah.getByText('2 selected')).toBeVisible();
  await noah.getByLabel('Post text').fill(`From the vault ${id}`);
  await noah.screenshot({ path: `${SHOTS}/vault-1280.png`, fullPage: true });
  await noah.setViewportSize({ width: 375, height: 800 });
  await noah.screenshot({ path: `${SHOTS}/vault-375.png` });
  await noah.setViewportSize({ width: 1280, height: 800 });
  await noah.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(noah).toHaveURL(/\/post\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  await expect(noah.getByText(`From the vault ${id}`)).toBeVisible();
  await expect(noah.getByTestId('carousel-position')).toHaveText('1 / 2', { timeout: 20_000 });
  expect(uploads).toBe(0);
});
