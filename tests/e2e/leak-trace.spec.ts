import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { formatFileSize } from '../../common/file-size';
import { TRACE_TEXTS } from '../../common/forensics';
import { appStarted, newPageAs, toasts, trpcQueryRaw, watchToasts } from './support/app';
import { seriousViolations, violationLines, WCAG_21_AA } from './support/axe';
import { newCreator } from './support/new-creator';
import { publishPicture } from './support/publish';
import { shootWidths } from './support/screens';
import { fixtureDir, writeFixture } from './support/uploads';

/**
 * Trace a leak (issue 49 item 5): a creator opens it from a post's menu, uploads a copy with a
 * progress bar, and reads the verdict when the worker has it, without reloading; a fan is told it
 * is not theirs to trace and gets no form; an admin finds the trace in the admin log and follows
 * it to the post's screen.
 */

/** The upload, slowed so its progress is seen (about 3 s for the picture below). */
const SLOW_UPLOAD = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 };

/** Every value the page's upload bar shows from now on (recorded by the page: the upload ends before a poll could see it). */
async function watchProgress(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"][aria-label="Upload progress"]');
      const value = bar ? Number(bar.getAttribute('aria-valuenow')) : null;
      if (value !== null && seen.at(-1) !== value) seen.push(value);
    }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  return () => page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
}

test('a creator traces a copy of a free post from its menu; a fan may not; the admin log leads to it', async ({ browser }) => {
  test.setTimeout(120_000);
  const { page: creator, username } = await newCreator(browser, 'tracer', ['Tess', 'Tracer']);
  const stamp = Date.now().toString(36);
  const postId = await publishPicture(creator.request, `trace-${stamp}.png`, `Trace me ${stamp}`, '#5b3ba5');
  await expect
    .poll(async () => (await trpcQueryRaw(creator.request, 'posts.byId', { id: postId })).text, { timeout: 30_000 })
    .toContain('"status":"published"');

  // the post's menu leads to the screen
  await creator.goto(`/post/${postId}`);
  await appStarted(creator);
  await creator.getByRole('button', { name: 'Post options' }).click();
  await creator.getByRole('menuitem', { name: TRACE_TEXTS.title }).click();
  await expect(creator).toHaveURL(new RegExp(`/post/${postId}/trace$`));
  await expect(creator.getByRole('heading', { level: 1, name: TRACE_TEXTS.title })).toBeVisible();
  await expect(creator.getByTestId('traced-post')).toContainText(`Free post by @${username}`);
  await expect(creator.getByText(TRACE_TEXTS.noTraces)).toBeVisible();
  expect(violationLines(await seriousViolations(creator, WCAG_21_AA))).toEqual([]);

  // a file that is not a video or a picture is refused before anything is sent
  const dir = await fixtureDir();
  const input = creator.getByLabel(TRACE_TEXTS.chooseFile);
  await input.setInputFiles(await writeFixture(dir, 'notes.txt', Buffer.from('not a picture')));
  await expect(toasts(creator).getByText(TRACE_TEXTS.invalidType.title, { exact: true })).toBeVisible();

  // the copy: noise does not compress, so the upload has something to show progress of
  const copy = await sharp({ create: { width: 480, height: 480, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer();
  const sha256 = createHash('sha256').update(copy).digest('hex');
  const file = await writeFixture(dir, 'found-online.png', copy);
  const cdp = await creator.context().newCDPSession(creator);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_UPLOAD);
  const progress = await watchProgress(creator);
  const seenToasts = await watchToasts(creator);
  await input.setInputFiles(file);
  await expect(creator.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  await expect.poll(seenToasts, { timeout: 30_000 }).toContainEqual(expect.stringContaining(TRACE_TEXTS.started.title));
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(creator.getByRole('progressbar', { name: 'Upload progress' })).toHaveCount(0);
  // the bar moved through the upload, not straight from nothing to done
  expect((await progress()).some((value) => value > 0 && value < 100)).toBe(true);

  // the trace joins the log and gets its answer without a reload
  const trace = creator.getByTestId('trace');
  await expect(trace).toHaveCount(1);
  await expect(trace).toContainText(`Asked by @${username}`);
  await expect(trace).toContainText(`File ${formatFileSize(copy.length)} · ${sha256.slice(0, 12)}`);
  await expect(trace.getByText(TRACE_TEXTS.unmarked)).toBeVisible({ timeout: 30_000 });
  await expect(trace).toContainText(TRACE_TEXTS.status.done);
  expect(violationLines(await seriousViolations(creator, WCAG_21_AA))).toEqual([]);
  await shootWidths(creator, 'leak-trace');
  await creator.context().close();

  // a fan who opens the address is told who may trace, and gets no form
  const fan = await newPageAs(browser, 'fan25', { at: `/post/${postId}/trace` });
  await expect(fan.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  await expect(fan.getByText(TRACE_TEXTS.notAllowed)).toBeVisible();
  await expect(fan.getByLabel(TRACE_TEXTS.chooseFile)).toHaveCount(0);
  await expect(fan.getByTestId('trace')).toHaveCount(0);
  await shootWidths(fan, 'leak-trace-not-allowed');
  await fan.context().close();

  // the admin finds it in the admin area's log and follows it to the post's screen
  const admin = await newPageAs(browser, 'admin', { at: '/admin' });
  await admin.getByRole('list', { name: 'Admin screens' }).getByRole('link', { name: /Leak traces/ }).click();
  await expect(admin).toHaveURL(/\/admin\/traces$/);
  const row = admin.getByTestId('trace').filter({ hasText: sha256.slice(0, 12) });
  await expect(row).toContainText(TRACE_TEXTS.unmarked);
  expect(violationLines(await seriousViolations(admin, WCAG_21_AA))).toEqual([]);
  await shootWidths(admin, 'admin-leak-traces');
  await row.getByRole('link', { name: `Traces of Post by @${username}` }).click();
  await expect(admin).toHaveURL(new RegExp(`/post/${postId}/trace$`));
  await expect(admin.getByRole('heading', { level: 1, name: TRACE_TEXTS.title })).toBeVisible();
  await expect(admin.getByTestId('trace').filter({ hasText: sha256.slice(0, 12) })).toContainText(TRACE_TEXTS.unmarked);
  await expect(admin.getByLabel(TRACE_TEXTS.chooseFile)).toBeAttached();
  await admin.context().close();
});
