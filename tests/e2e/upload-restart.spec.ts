import { expect, test } from '@playwright/test';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { resolveFfmpegPath } from '../../worker/media/ffmpeg-path';
import { signIn } from './support/app';
import { fileInput, fixtureDir, form, isTusPatch, publishButton, waitForUploadedPostId } from './support/uploads';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** A second copy of the app on `port`, sharing the test run's database, Redis and files (its worker runs in the main copy). */
async function startCopy(port: number): Promise<ChildProcess> {
  const env = { ...process.env, ...JSON.parse(process.env.E2E_SERVER_ENV!), PORT: String(port), APP_URL: `http://localhost:${port}`, RUN_WORKER: 'false' };
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], { cwd: repoRoot, env, stdio: 'ignore' });
  await expect.poll(() => fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false), { timeout: 30_000 }).toBe(true);
  return child;
}

test('a 60 MB video keeps uploading when the server is killed mid-upload and comes back', async ({ browser }) => {
  test.setTimeout(180_000);
  const dir = await fixtureDir();
  const video = path.join(dir, `restart-${Date.now()}.mp4`);
  await run(resolveFfmpegPath(), [
    '-y', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=330',
    '-t', '34', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '24M', '-pix_fmt', 'yuv420p', '-c:a', 'aac', video,
  ]);
  expect((await stat(video)).size).toBeGreaterThan(60_000_000);

  const port = await freePort();
  let server = await startCopy(port);
  const context = await browser.newContext({ baseURL: `http://localhost:${port}` });
  const page = await context.newPage();
  try {
    await signIn(page, 'iris'); // a private creator: her post shows in no one else's feed
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
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    const beforeRestart = Math.max(...offsets);
    expect(beforeRestart).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // ...and comes back: the client's retries find it and continue from the offset the server kept.
    server = await startCopy(port);
    // the last PATCH answers with the post it became (the form then resets for the next upload)
    const id = await postId;
    const afterRestart = offsets.filter((_, i) => i > offsets.indexOf(beforeRestart));
    expect(Math.min(...afterRestart)).toBeGreaterThanOrEqual(beforeRestart);

    // the worker (in the main copy) publishes it; its owner can play it
    await expect
      .poll(async () => (await page.request.get(`/media/${id}/original`, { headers: { range: 'bytes=0-1' } })).status(), { timeout: 90_000 })
      .toBe(206);
  } finally {
    await context.close();
    server.kill('SIGTERM');
  }
});
