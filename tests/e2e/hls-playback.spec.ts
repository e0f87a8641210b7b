import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { toUploadMetadata, UPLOAD_POST_ID_HEADER } from '../../common/uploads';
import { bulkFan } from '../../scripts/seed/cast';
import { makeVideo } from '../helpers/media-fixtures';
import { encodeMetadata } from '../helpers/tus';
import { e2eBaseURL, newPageAs, trpcMutation, trpcQuery } from './support/app';
import { becomeVerifiedCreator } from './support/new-creator';
import { shootWidths } from './support/screens';

/**
 * Issue 49 items 1-2 in a browser: a new creator (fan25, in no other spec) posts a premium video;
 * once the worker has made its HLS ladder, a subscribed fan (fan19, in no other spec) plays it on
 * the post's page through hls.js (its requests go to the per-viewer playlists and .m4s segments,
 * and the picture advances; the seek bar previews the thumbnail strip), and a segment URL the fan's player fetched, copied into a new browser
 * context without the fan's session, answers 403.
 */
const CREATOR = bulkFan(24);
const FAN = bulkFan(18);

test('a subscribed fan plays a premium video through hls.js; a copied segment URL answers 403 in another browser', async ({ browser }) => {
  test.setTimeout(180_000);
  const creator = await newPageAs(browser, CREATOR.email, { at: '/settings/account/payment' });
  await becomeVerifiedCreator(creator.request);
  const tierName = `Stream ${randomUUID().slice(0, 6)}`;
  expect((await trpcMutation(creator.request, e2eBaseURL(), 'tiers.create', { name: tierName, price: '40', paymentInterval: 'monthly', discountPercentage: 0 })).status).toBe(200);

  // the premium video, uploaded as the browser would (tus, one request)
  const dir = await mkdtemp(path.join(tmpdir(), 'hls-e2e-'));
  const bytes = await readFile(await makeVideo(dir, { seconds: 8, width: 640, height: 360, faststart: true }));
  await rm(dir, { recursive: true, force: true });
  const meta = toUploadMetadata({ filename: 'lesson.mp4', filetype: 'video/mp4', title: 'Streamed lesson', isPaidContent: true, isNsfw: false, status: 'published' });
  const uploaded = await creator.request.post('/uploads', {
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(bytes.length),
      'Upload-Metadata': encodeMetadata(meta),
      'Content-Type': 'application/offset+octet-stream',
      origin: e2eBaseURL(),
    },
    data: bytes,
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const postId = uploaded.headers()[UPLOAD_POST_ID_HEADER.toLowerCase()]!;

  const fan = await newPageAs(browser, FAN.email, { at: '/' });
  const { tiers } = await trpcQuery<{ tiers: { id: string; name: string }[] }>(fan.request, 'subscriptions.subscribePage', { username: CREATOR.username });
  const subscribed = await trpcMutation(fan.request, e2eBaseURL(), 'subscriptions.subscribe', { tierId: tiers.find((t) => t.name === tierName)!.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' });
  expect(subscribed.status, subscribed.message ?? '').toBe(200);

  // the post is published with its MP4, then the ladder's job makes the stream
  await expect.poll(async () => (await fan.request.get(`/hls/${postId}/0/master.m3u8`)).status(), { timeout: 120_000, intervals: [1000] }).toBe(200);

  const requested: string[] = [];
  fan.on('request', (request) => requested.push(request.url()));
  await fan.goto(`/post/${postId}`);
  const video = fan.locator('video');
  await expect(video).toHaveAttribute('data-playback', 'hls.js');
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 }).toBeGreaterThan(1.5);
  expect(await video.evaluate((v: HTMLVideoElement) => v.error?.code ?? null)).toBeNull();
  await shootWidths(fan, 'hls-post-playing');

  // the pointer along the seek bar shows the strip's picture for that time
  const box = (await video.boundingBox())!;
  await fan.mouse.move(box.x + box.width * 0.6, box.y + box.height - 20);
  const preview = fan.getByTestId('seek-preview');
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((el) => getComputedStyle(el).backgroundImage)).toContain(`/hls/${postId}/0/s/thumbs.jpg?u=`);
  await fan.mouse.move(box.x + box.width * 0.6, box.y + 20);
  await expect(preview).toHaveCount(0);

  const paths = requested.map((u) => new URL(u).pathname);
  expect(paths).toContain(`/hls/${postId}/0/master.m3u8`);
  expect(paths).toContain(`/hls/${postId}/0/360.m3u8`);
  const segments = requested.filter((u) => new URL(u).pathname.endsWith('.m4s'));
  expect(segments.length).toBeGreaterThan(0);
  // the MP4 was never fetched: the stream played
  expect(paths).not.toContain(`/media/${postId}/original`);

  // the fan's own segment URL works for the fan...
  expect((await fan.request.get(segments[0]!)).status()).toBe(200);
  // ...and not in another browser, with nobody's session
  const elsewhere = await browser.newContext({ baseURL: e2eBaseURL() });
  expect((await elsewhere.request.get(segments[0]!)).status()).toBe(403);
  const other = await elsewhere.newPage();
  const opened = await other.goto(segments[0]!);
  expect(opened?.status()).toBe(403);
  await elsewhere.close();
  await fan.context().close();
  await creator.context().close();
});
