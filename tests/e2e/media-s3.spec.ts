import { expect, test } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { POST_TEXTS } from '../../common/texts';
import { createStorage } from '../../core/storage';
import { newS3Bucket, startS3Server, type RunningS3Server } from '../helpers/s3-server';
import { demoLadderMade, playAndSeek, settledPlayback } from './support/video';
import { findPost, imagesSettled, toasts, trpcMutation } from './support/app';
import { e2eDirs, DEMO_PASSWORD } from './support/env';
import { freePort } from '../helpers/processes';
import { startServerProcess } from './support/server-process';

/**
 * The media of the browser tests with STORAGE_DRIVER=s3: a copy of the app on the run's database
 * whose files are in a bucket of a real S3 server (s3rver on loopback, the seeded files copied
 * there). The media route redirects to presigned URLs of the store, and the video's HLS playlists
 * list segment URLs the store presigned, so the browser streams, seeks, shows and saves media
 * fetched from another origin (its CSP and the bucket's CORS allow it).
 * A small subset of feed.spec's media checks; the rest of the run uses disk storage.
 */
const PREMIUM_VIDEO = 'Groove breakdown';

let s3: RunningS3Server;
let server: ChildProcess;
let baseURL: string;
let s3Origin: string;

/** Every file the seed stored on disk, put under the same key in the bucket with its content type. */
async function copyStorageToBucket(storageDir: string, env: Record<string, string>) {
  const bucket = createStorage({ STORAGE_DRIVER: 's3', STORAGE_DIR: '', ...env });
  const files = (await readdir(storageDir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
  for (const file of files) {
    const key = path.relative(storageDir, path.join(file.parentPath, file.name));
    if (key.startsWith('.')) continue;
    const meta = await readFile(path.join(storageDir, '.meta', `${key}.json`), 'utf8').then((m) => JSON.parse(m) as { contentType?: string }, () => ({}));
    await bucket.put(key, await readFile(path.join(storageDir, key)), (meta as { contentType?: string }).contentType ?? 'application/octet-stream');
  }
}

test.beforeAll(async () => {
  test.setTimeout(150_000);
  s3 = await startS3Server();
  s3Origin = s3.url;
  const bucketEnv = await newS3Bucket(s3.url);
  // the worker makes the demo video's HLS ladder after the seed: copied with the rest once it is there
  await demoLadderMade(PREMIUM_VIDEO);
  await copyStorageToBucket(e2eDirs().storageDir, bucketEnv);
  const port = await freePort();
  baseURL = `http://localhost:${port}`;
  const env = { ...process.env, ...JSON.parse(process.env.E2E_SERVER_ENV!), ...bucketEnv, PORT: String(port), APP_URL: baseURL, RUN_WORKER: 'false' };
  server = await startServerProcess(env);
});

test.afterAll(async () => {
  server?.kill('SIGKILL');
  await s3?.stop();
});

test('with S3 storage a subscriber plays the premium video from the store, seeks in it, and saves it; pictures show', async ({ browser }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const signedIn = await trpcMutation(context.request, baseURL, 'auth.signIn', { email: 'sam@demo.test', password: DEMO_PASSWORD });
  expect(signedIn.status).toBe(200);
  const page = await context.newPage();
  const { id } = await findPost(context.request, PREMIUM_VIDEO);

  // the media route answers with a redirect to the store, never the bytes
  const redirect = await context.request.get(`/media/${id}/original`, { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  expect(redirect.headers()['cache-control']).toBe('private, no-store');
  expect(new URL(redirect.headers().location!).origin).toBe(s3Origin);

  const fromStore: string[] = [];
  const segmentsFromStore: string[] = [];
  page.on('response', (r) => {
    if (r.url().startsWith(s3Origin)) fromStore.push(`${r.status()} ${r.request().resourceType()}`);
    if (new URL(r.url()).pathname.endsWith('.m4s')) segmentsFromStore.push(r.url());
  });
  await page.goto(`/post/${id}`);
  const post = page.getByRole('article', { name: PREMIUM_VIDEO, exact: true });
  const video = post.locator('video');
  // streamed (issue 49): the app's playlists name each segment by a URL the store presigned
  expect(await settledPlayback(video)).toBe('hls.js');
  const played = await playAndSeek(video);
  expect(played.error).toBeNull();
  expect(played.duration).toBeGreaterThan(3);
  expect(played.time).toBeGreaterThanOrEqual(2.4);
  expect(segmentsFromStore.length).toBeGreaterThan(0);
  expect(segmentsFromStore.every((u) => new URL(u).origin === s3Origin)).toBe(true);

  // a Range through the redirect, as the player asks for it
  const ranged = await context.request.get(`/media/${id}/original`, { headers: { Range: 'bytes=100-199' } });
  expect(ranged.status()).toBe(206);
  expect(ranged.headers()['content-range']).toMatch(/^bytes 100-199\/\d+$/);

  // Save Media: fetched from the store (CORS), named after the title
  const downloading = page.waitForEvent('download');
  await post.getByRole('button', { name: POST_TEXTS.saveMedia }).click();
  expect((await downloading).suggestedFilename()).toBe('groove-breakdown.mp4');
  await expect(toasts(page).getByText(POST_TEXTS.downloadStarted, { exact: true })).toBeVisible();

  // the feed's pictures load from the store too
  await page.goto('/');
  await expect(page.getByRole('list', { name: 'Posts' }).getByRole('article').first()).toBeVisible();
  await imagesSettled(page);
  expect(fromStore.some((r) => r.endsWith('image'))).toBe(true);
  await context.close();
});
