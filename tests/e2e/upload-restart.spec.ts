import { expect, test, type Browser } from '@playwright/test';
import { execFile, type ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { resolveFfmpegPath } from '../../worker/media/ffmpeg-path';
import { signIn } from './support/app';
import { freePort } from '../helpers/processes';
import { startS3Stack } from './support/s3-stack';
import { startServerProcess } from './support/server-process';
import { fileInput, fixtureDir, form, isTusPatch, publishButton, waitForUploadedPostId } from './support/uploads';

const run = promisify(execFile);

/** A second copy of the app on `port`, sharing the test run's database, Redis and files (its worker runs in the main copy). */
async function startCopy(port: number): Promise<ChildProcess> {
  const env = { ...process.env, ...JSON.parse(process.env.E2E_SERVER_ENV!), PORT: String(port), APP_URL: `http://localhost:${port}`, RUN_WORKER: 'false' };
  return startServerProcess(env);
}

/** A server the test may kill and start again, and a signed-in creator's browser context on it. */
interface Target {
  baseURL: string;
  signIn(browser: Browser): Promise<import('@playwright/test').BrowserContext>;
  kill(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Disk storage: a copy of the run's app (its incoming uploads on the run's folder), iris signed in. */
async function diskTarget(): Promise<Target> {
  const port = await freePort();
  const baseURL = `http://localhost:${port}`;
  let server: ChildProcess | null = await startCopy(port);
  const kill = async () => {
    const child = server!;
    server = null;
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  return {
    baseURL,
    async signIn(browser) {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      await signIn(page, 'iris'); // a private creator: her post shows in no one else's feed
      await page.close();
      return context;
    },
    kill,
    start: async () => void (server = await startCopy(port)),
    close: async () => void server?.kill('SIGTERM'),
  };
}

/** S3 storage: an app of its own (support/s3-stack.ts), tus parts and the post's files in its bucket. */
async function s3Target(): Promise<Target> {
  const stack = await startS3Stack();
  await stack.start();
  return {
    baseURL: stack.baseURL,
    async signIn(browser) {
      const context = await browser.newContext({ baseURL: stack.baseURL });
      await stack.signIn(context.request);
      return context;
    },
    kill: stack.kill,
    start: stack.start,
    close: stack.close,
  };
}

// The run's one worker then makes each video's MP4 and HLS ladder while the other specs run (each
// second: 25 frames of 720p encoded three times), so the videos are only as long as the test needs:
// 16 s is about 30 MB, 6 parts of 5 MiB, some of them left when the server dies after the third.
for (const [driver, seconds] of [
  ['disk', 16],
  // fewer bytes: the parts go through s3rver, which writes and reads every byte of them again
  ['s3', 14],
] as const) {
  test(`a large video (${seconds} s of 720p at 24 Mbit/s) keeps uploading when the server is killed mid-upload and comes back (${driver} storage)`, async ({ browser }) => {
    // two starts of a server copy, each up to a minute and a half on a loaded 2-core machine
    test.setTimeout(300_000);
    const dir = await fixtureDir();
    const video = path.join(dir, `restart-${Date.now()}.mp4`);
    await run(resolveFfmpegPath(), [
      '-y', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=330',
      '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '24M', '-pix_fmt', 'yuv420p', '-c:a', 'aac', video,
    ]);
    expect((await stat(video)).size).toBeGreaterThan(seconds * 1_750_000);

    const target = driver === 'disk' ? await diskTarget() : await s3Target();
    const context = await target.signIn(browser);
    const page = await context.newPage();
    try {
      await page.goto('/create');
      // a slow line, so there is time to kill the server mid-upload
      await page.route('**/uploads/*', async (route) => {
        if (isTusPatch(route.request())) await new Promise((resolve) => setTimeout(resolve, 700));
        await route.continue().catch(() => undefined);
      });
      const offsets: number[] = [];
      page.on('request', (request) => {
        if (isTusPatch(request)) offsets.push(Number(request.headers()['upload-offset']));
      });

      await fileInput(page).setInputFiles(video);
      await form(page).getByLabel('Post text').fill('Night ride, uploaded through a server restart');
      const postId = waitForUploadedPostId(page, 150_000);
      await publishButton(page).click();
      await expect.poll(() => offsets.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);

      // The server dies without warning in the middle of the upload...
      await target.kill();
      const beforeRestart = Math.max(...offsets);
      expect(beforeRestart).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // ...and comes back: the client's retries find it and continue from the offset the server kept.
      await target.start();
      // the last PATCH answers with the post it became (the form then resets for the next upload)
      const id = await postId;
      const afterRestart = offsets.filter((_, i) => i > offsets.indexOf(beforeRestart));
      // the upload was not over when the server died: parts went to the new process
      expect(afterRestart.length).toBeGreaterThan(0);
      expect(Math.min(...afterRestart)).toBeGreaterThanOrEqual(beforeRestart);

      // the worker publishes it; its owner can play it (with S3, through a redirect to the store)
      await expect
        .poll(async () => (await page.request.get(`/media/${id}/original`, { headers: { range: 'bytes=0-1' } })).status(), { timeout: 90_000 })
        .toBe(206);
      if (driver === 's3') {
        const redirect = await page.request.get(`/media/${id}/original`, { maxRedirects: 0 });
        expect(redirect.status()).toBe(302);
        expect(new URL(redirect.headers().location!).origin).not.toBe(new URL(target.baseURL).origin);
      }
    } finally {
      await context.close();
      await target.close();
    }
  });
}
