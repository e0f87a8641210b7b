import { expect, test, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { BILLING_TEXTS, CREATE_TEXTS, CREATOR_TEXTS, POST_TEXTS, UPLOAD_TEXTS } from '../../common/texts';
import { MEDIA_SETTINGS_TEXTS } from '../../common/media-settings-texts';
import { fakeExe, jpegWithExif, makePdf } from '../helpers/media-fixtures';
import { resolveFfmpegPath } from '../../worker/media/ffmpeg-path';
import { e2eBaseURL, newPageAs, signIn, toasts, trpcMutation, trpcQuery, watchToasts } from './support/app';
import { publishPicture } from './support/publish';
import {
  draftButton,
  fetchMedia,
  fileInput,
  fixtureDir,
  form,
  isTusPatch,
  progressBar,
  publishButton,
  markedShare,
  serverOffset,
  storedUploadUrls,
  waitForUploadedPostId,
  writeFixture,
  yourUploads,
} from './support/uploads';
import { makeFanAgain } from './support/retry-reset';

/**
 * Becoming a creator and uploading (issue 5) against the seeded demo, with the real media worker
 * running in the server process. Specs run two at a time on one database, so this file only
 * changes what nobody else reads:
 * - fan30 becomes a creator (the only new creator: landing's Featured Creators stays within 6);
 * - noah (public) uploads what must reach another user's feed live: an image and a video;
 * - theo (hidden: his posts reach no feed) uploads the PDF draft, the renamed executable and the
 *   watermark checks, and his media settings are changed here.
 * Each post carries a stamp in its text, so nothing depends on its place in a feed.
 */

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');
const run = promisify(execFile);
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const MB = 1024 * 1024;

const toast = (page: Page, text: string) => toasts(page).getByText(text, { exact: true }).first();

/** One toast with both lines, checked at once (a toast lasts 3 s: two checks in a row can straddle its end). */
async function expectToast(page: Page, text: { title: string; description?: string }, timeout?: number) {
  const one = toasts(page).locator('[data-sonner-toast]').filter({ has: page.getByText(text.title, { exact: true }) });
  await expect((text.description ? one.filter({ has: page.getByText(text.description, { exact: true }) }) : one).first()).toBeVisible({ timeout });
}

/**
 * Screenshots into tests/.artifacts/: the whole page at 1280 px; at 375 px the screen as a phone
 * shows it (a full-page capture would paint the fixed bottom bar over the middle of the page),
 * at the top and scrolled to the end.
 */
async function screenshots(page: Page, name: string) {
  // toasts would cover the screen's own controls
  const hideToasts = await page.addStyleTag({ content: '[data-sonner-toaster] { display: none !important; }' });
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    if (width > 768) {
      await page.screenshot({ path: path.join(artifacts, `${name}-${width}.png`), fullPage: true });
      continue;
    }
    await page.screenshot({ path: path.join(artifacts, `${name}-${width}.png`) });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.screenshot({ path: path.join(artifacts, `${name}-${width}-end.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await hideToasts.evaluate((style) => (style as Element).remove());
}

/** Deletes a post of the page's user (other specs read noah's profile and the feed). */
async function removePost(page: Page, postId: string) {
  const result = await trpcMutation(page.request, e2eBaseURL(), 'posts.delete', { postId });
  expect(result.status).toBe(200);
}

/** A test-pattern video with a tone, big enough for three 5 MB chunks. */
async function makeChunkyVideo(dir: string, name: string): Promise<string> {
  const file = path.join(dir, name);
  await run(resolveFfmpegPath(), [
    '-y', '-v', 'error',
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100',
    '-t', '7', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '20M', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '96k',
    file,
  ]);
  return file;
}

test('a fan becomes a creator on /create (after signing in), then sees the Content and Subscription Tiers tabs', async ({ page }, testInfo) => {
  if (testInfo.retry > 0) await makeFanAgain('fan30@demo.test');
  // no session: /create stores the path and sends the visitor to sign in, then back
  await page.goto('/create');
  await expect(page).toHaveURL(/\/auth\?tab=signin$/);
  await signIn(page, 'fan30@demo.test');
  await expect(page).toHaveURL(/\/create$/);

  const become = page.getByRole('region', { name: CREATOR_TEXTS.becomeTitle });
  await expect(become.getByRole('heading', { level: 1, name: CREATOR_TEXTS.becomeTitle })).toBeVisible();
  await expect(become.getByRole('list', { name: 'Benefits' }).getByRole('listitem')).toHaveText([...CREATE_TEXTS.benefits]);
  await expect(page.getByRole('tab')).toHaveCount(0);
  await screenshots(page, 'create-become-creator');

  // the server fails once: the spec's words, and the page stays
  await page.route('**/trpc/creators.become*', (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'down' }));
  await become.getByRole('button', { name: CREATOR_TEXTS.becomeButton }).click();
  await expectToast(page, { title: 'Error', description: CREATOR_TEXTS.becomeFailed });
  await expect(become).toBeVisible();
  await page.unroute('**/trpc/creators.become*');

  await become.getByRole('button', { name: CREATOR_TEXTS.becomeButton }).click();
  await expectToast(page, { title: CREATOR_TEXTS.becameCreator });
  const content = page.getByRole('tab', { name: CREATE_TEXTS.tabContent });
  await expect(content).toHaveAttribute('aria-selected', 'true');
  await expect(form(page)).toBeVisible();
  await expect(publishButton(page)).toBeDisabled();
  await expect(draftButton(page)).toBeDisabled();
  const me = await trpcQuery<{ isCreator: boolean }>(page.request, 'auth.me', undefined);
  expect(me.isCreator).toBe(true);

  // a new creator has no tiers: the tier manager says so and offers to add one
  await page.getByRole('tab', { name: CREATE_TEXTS.tabTiers }).click();
  await expect(page.getByText(BILLING_TEXTS.noTiers)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Tier' })).toBeVisible();
  await expect(page).toHaveURL(/\/create\?tab=tiers$/);
  await content.click();
  await expect(form(page)).toBeVisible();

  // still a creator after a reload: the tabs, not the Become a Creator page
  await page.reload();
  await expect(page.getByRole('tab', { name: CREATE_TEXTS.tabContent })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: CREATOR_TEXTS.becomeTitle })).toHaveCount(0);

  // a file can be dropped on the zone, or picked from the keyboard
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['Some notes.'], 'dropped-notes.txt', { type: 'text/plain' }));
    return transfer;
  });
  await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
  const preview = page.getByTestId('file-preview');
  await expect(preview).toContainText('dropped-notes.txt');
  await expect(preview).toContainText('TXT · 11 B');
  await expect(publishButton(page)).toBeEnabled();
  await expect(draftButton(page)).toBeEnabled();
  await preview.getByRole('button', { name: 'Remove dropped-notes.txt' }).click();
  await expect(preview).toHaveCount(0);
  // Enter on the input: press focuses it and presses in one step (a focus() and then a key on the
  // page opened no picker once under load, the focus no longer on the input by then)
  const chooser = page.waitForEvent('filechooser');
  await fileInput(page).press('Enter');
  await (await chooser).setFiles({ name: 'picked.pdf', mimeType: 'application/pdf', buffer: makePdf() });
  await expect(preview).toContainText('picked.pdf');
  await preview.getByRole('button', { name: 'Remove picked.pdf' }).click();

  // the form refuses at once, in the spec's words, what the spec refuses: nothing is sent
  const sent: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/uploads')) sent.push(request.method());
  });
  const cases: { name: string; size: number; text: { title: string; description?: string } }[] = [
    { name: 'setup.exe', size: 2048, text: UPLOAD_TEXTS.invalidType },
    { name: 'notes', size: 2048, text: UPLOAD_TEXTS.invalidType },
    { name: 'photo.jpg', size: 10 * MB + 1, text: UPLOAD_TEXTS.tooLarge(10) },
    { name: 'manual.pdf', size: 20 * MB + 1, text: UPLOAD_TEXTS.tooLarge(20) },
  ];
  for (const { name, size, text } of cases) {
    // a file on disk, as a person picks it: a buffer of 20 MB would cross to the browser in base64
    const file = testInfo.outputPath(name);
    await writeFile(file, '');
    await truncate(file, size);
    await fileInput(page).setInputFiles(file);
    await expectToast(page, text);
    await expect(page.getByTestId('file-preview')).toHaveCount(0);
    await expect(publishButton(page)).toBeDisabled();
  }
  expect(UPLOAD_TEXTS.tooLarge(10)).toEqual({ title: 'File too large', description: 'Maximum file size is 10MB' });
  expect(sent).toEqual([]);
});

test('an image uploads through a dropped connection, reaches another user’s feed live, without its EXIF', async ({ browser }) => {
  const dir = await fixtureDir();
  const id = stamp();
  const image = await jpegWithExif(1600, 1200);
  expect((await sharp(image).metadata()).exif).toBeDefined();
  const file = await writeFixture(dir, `sunset-${id}.jpg`, image);
  const text = `Sunset over the rank ${id} #e2eupload`;

  const [noah, viewer] = await Promise.all([newPageAs(browser, 'noah'), newPageAs(browser, 'fan31@demo.test')]);
  await viewer.goto('/');
  await expect(viewer.getByRole('list', { name: 'Posts' }).getByRole('article').first()).toBeVisible();

  await noah.goto('/create');
  // the first chunk's connection drops: tus-js-client asks where it stopped and sends the rest
  let dropped = 0;
  await noah.route('**/uploads/*', async (route) => {
    if (isTusPatch(route.request()) && dropped === 0) {
      dropped += 1;
      return route.abort('connectionreset');
    }
    return route.continue();
  });

  await fileInput(noah).setInputFiles(file);
  const preview = noah.getByTestId('file-preview');
  await expect(preview.getByRole('img', { name: `Preview of sunset-${id}.jpg` })).toBeVisible();
  await expect(preview).toContainText('JPG');
  await form(noah).getByLabel('Post text').fill(text);
  await form(noah).getByLabel('Hashtags').fill('#travel, golden_hour');
  await expect(form(noah).getByLabel('Hashtags to be added')).toHaveText(/#travel\s*#golden_hour/);
  await expect(noah.getByRole('switch', { name: 'Paid content' })).toHaveAttribute('aria-checked', 'false');
  await expect(noah.getByRole('switch', { name: 'NSFW' })).toHaveAttribute('aria-checked', 'false');

  const postId = waitForUploadedPostId(noah);
  await publishButton(noah).click();
  await expectToast(noah, UPLOAD_TEXTS.publishing);
  const id1 = await postId;
  expect(dropped).toBe(1);
  // the form is ready for the next post
  await expect(noah.getByTestId('file-preview')).toHaveCount(0);
  await expect(form(noah).getByLabel('Post text')).toHaveValue('');

  await expectToast(noah, POST_TEXTS.published);
  // the other user's feed offers it under its 'new posts' pill, which loads it without a reload
  const card = viewer.locator(`article[data-post-id="${id1}"]`);
  const pill = viewer.getByRole('button', { name: /^\d+ new posts?$/ });
  await expect(async () => {
    // another creator's post may have raised the pill a moment before this one: press until it is in
    await pill.click({ timeout: 2_000 });
    await expect(card).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(card).toContainText(`Sunset over the rank ${id}`);
  await expect(card.getByRole('link', { name: '#travel' })).toBeVisible();

  // the served picture: upright (EXIF orientation applied) and with no EXIF (no GPS) left
  const web = await fetchMedia(viewer, id1, 'web');
  const meta = await sharp(web).metadata();
  expect(meta.exif).toBeUndefined();
  expect(meta.height!).toBeGreaterThan(meta.width!);

  // noah's profile is read by other specs: the post goes, and leaves the other feed live (once the
  // card's room is joined: a deletion before that is for the card's next load to show)
  await expect(card).toHaveAttribute('data-live', 'joined');
  await removePost(noah, id1);
  await expect(card).toHaveCount(0);
  await Promise.all([noah.context().close(), viewer.context().close()]);
});

test('a PDF saved as draft; a renamed executable fails with its reason and can be retried or deleted', async ({ browser }) => {
  const dir = await fixtureDir();
  const id = stamp();
  const theo = await newPageAs(browser, 'theo', { at: '/create' });

  // a PDF, as a draft
  const pdf = await writeFixture(dir, `notes-${id}.pdf`, makePdf());
  await fileInput(theo).setInputFiles(pdf);
  await expect(theo.getByTestId('file-preview')).toContainText(`notes-${id}.pdf`);
  await expect(theo.getByTestId('file-preview')).toContainText('PDF');
  await form(theo).getByLabel('Post text').fill(`Draft notes ${id}`);
  await draftButton(theo).click();
  await expectToast(theo, { title: UPLOAD_TEXTS.savedAsDraft });
  await expect
    .poll(async () => {
      const drafts = await trpcQuery<{ items: { text: string | null }[] }>(theo.request, 'profiles.drafts', { limit: 20 });
      return drafts.items.some((p) => p.text === `Draft notes ${id}`);
    }, { timeout: 20_000 })
    .toBe(true);

  // an executable named .jpg: the worker refuses it by its bytes, the creator reads why
  const exeName = `holiday-${id}.jpg`;
  const exe = await writeFixture(dir, exeName, fakeExe());
  await fileInput(theo).setInputFiles(exe);
  await publishButton(theo).click();
  await expectToast(theo, UPLOAD_TEXTS.publishing);
  const reason = UPLOAD_TEXTS.typeMismatch('jpg', 'exe');
  await expectToast(theo, { title: UPLOAD_TEXTS.uploadFailed, description: reason });
  const failed = yourUploads(theo).getByRole('article', { name: exeName });
  await expect(failed).toContainText('Failed');
  await expect(failed.getByTestId('failure-reason')).toHaveText(reason);
  await expect(toast(theo, POST_TEXTS.published.title)).toHaveCount(0);

  // Retry: processed again, refused again (a new 'Upload failed' once the first toast has gone)
  await expect(toasts(theo).getByText(reason, { exact: true })).toHaveCount(0);
  const retried = theo.waitForResponse((r) => r.url().includes('/trpc/posts.retryProcessing') && r.ok());
  await failed.getByRole('button', { name: `Retry ${exeName}` }).click();
  await retried;
  await expectToast(theo, { title: UPLOAD_TEXTS.uploadFailed, description: reason });
  await expect(failed.getByTestId('failure-reason')).toHaveText(reason);
  await screenshots(theo, 'create-failed-upload');
  // Delete: asks first, naming the file; then gone
  await failed.getByRole('button', { name: `Delete ${exeName}` }).click();
  const confirm = theo.getByRole('alertdialog', { name: POST_TEXTS.deleteUploadConfirm.title });
  await expect(confirm).toHaveAccessibleDescription(POST_TEXTS.deleteUploadConfirm.description(exeName));
  await screenshots(theo, 'create-delete-upload-confirm');
  await confirm.getByRole('button', { name: POST_TEXTS.deleteUploadConfirm.confirm }).click();
  await expectToast(theo, POST_TEXTS.deleted);
  await expect(yourUploads(theo).getByRole('article', { name: exeName })).toHaveCount(0);
  await theo.context().close();
});

test('media settings are saved and the next upload is watermarked as they say', async ({ browser }) => {
  const theo = await newPageAs(browser, 'theo');

  // the screen needs a session
  const visitor = await newPageAs(browser, null);
  await visitor.goto('/settings/media');
  await expect(visitor).toHaveURL(/\/auth\?tab=signin$/);
  await visitor.context().close();

  await theo.goto('/settings/media');
  await expect(theo.getByRole('heading', { level: 1, name: 'Media Settings' })).toBeVisible();
  const toggle = theo.getByRole('switch', { name: 'Watermark' });
  // theo's demo settings: off
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(theo.getByLabel('Watermark text')).toHaveCount(0);
  await expect(theo.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/settings');

  /** Publishes a flat grey picture (through tus, as the form does: the form has its own tests) and returns its served web image. */
  const uploadFlat = async (name: string) => {
    const id = await publishPicture(theo.request, name, `Watermark check ${name}`, '#808080', [800, 600]);
    await expect
      .poll(async () => (await trpcQuery<{ status: string }>(theo.request, 'posts.byId', { id })).status, { timeout: 30_000 })
      .toBe('published');
    return fetchMedia(theo, id, 'web');
  };

  // off: the picture comes back flat
  const plain = await uploadFlat(`flat-off-${stamp()}.png`);
  const { width = 0, height = 0 } = await sharp(plain).metadata();
  // corners a little larger than the mark (its text is about 5% of the shorter side high)
  const corner = { width: Math.floor(width * 0.45), height: Math.floor(height * 0.2) };
  const topLeft = { left: 0, top: 0, ...corner };
  const bottomRight = { left: width - corner.width, top: height - corner.height, ...corner };
  const center = { left: Math.floor((width - corner.width) / 2), top: Math.floor((height - corner.height) / 2), ...corner };
  for (const region of [topLeft, center, bottomRight]) expect(await markedShare(plain, region)).toBe(0);

  // on, with a text, bottom right; 'Saving...' while the server answers
  await theo.goto('/settings/media');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  const textField = theo.getByLabel('Watermark text');
  await expect(textField).toHaveValue('');
  await expect(theo.getByText('Leave it empty to use your username (@theo).', { exact: false })).toBeVisible();
  await expect(theo.getByRole('radio', { name: 'Center' })).toBeChecked();
  await textField.fill('E2E MARK');
  // the radio cards are labels around visually hidden radios
  await theo.locator('label').filter({ hasText: 'Bottom right' }).click();
  await expect(theo.getByRole('radio', { name: 'Bottom right' })).toBeChecked();
  await theo.route('**/trpc/mediaSettings.save*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    await route.continue();
  });
  await theo.getByRole('button', { name: 'Save Changes' }).click();
  await expect(theo.getByRole('button', { name: 'Saving...' })).toBeDisabled();
  await expectToast(theo, { title: MEDIA_SETTINGS_TEXTS.saved });
  await theo.unroute('**/trpc/mediaSettings.save*');

  // kept: a reload shows them
  await theo.reload();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(theo.getByLabel('Watermark text')).toHaveValue('E2E MARK');
  await expect(theo.getByRole('radio', { name: 'Bottom right' })).toBeChecked();
  await screenshots(theo, 'settings-media');

  // the next picture carries the mark in its bottom-right corner, and nowhere else
  const marked = await uploadFlat(`flat-on-${stamp()}.png`);
  expect(await markedShare(marked, bottomRight)).toBeGreaterThan(0.01);
  expect(await markedShare(marked, topLeft)).toBe(0);
  expect(await markedShare(marked, center)).toBe(0);

  // a failed load says so
  await theo.route('**/trpc/*mediaSettings.get*', (route) => route.fulfill({ status: 500, body: 'down' }));
  await theo.goto('/settings/media');
  await expect(theo.getByRole('alert').getByText(MEDIA_SETTINGS_TEXTS.loadFailed, { exact: true })).toBeVisible();
  await expect(toast(theo, MEDIA_SETTINGS_TEXTS.loadFailed)).toBeVisible();
  await theo.context().close();
});

test('a video upload pauses, survives a reload and resumes from the server’s offset; its card is replaced live', async ({ browser }) => {
  test.setTimeout(120_000);
  const dir = await fixtureDir();
  const id = stamp();
  const name = `route-${id}.mp4`;
  const video = await makeChunkyVideo(dir, name);
  const size = (await readFile(video)).length;
  expect(size).toBeGreaterThan(10 * MB);
  const text = `Night drive ${id}`;

  const noah = await newPageAs(browser, 'noah', { at: '/create' });
  // a slow line: every chunk waits a moment before it leaves
  await noah.route('**/uploads/*', async (route) => {
    if (isTusPatch(route.request())) await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue().catch(() => undefined);
  });
  await fileInput(noah).setInputFiles(video);
  await expect(noah.getByTestId('file-preview').getByLabel(`Preview of ${name}`)).toBeVisible();
  await form(noah).getByLabel('Post text').fill(text);
  const firstChunk = noah.waitForResponse((r) => isTusPatch(r.request()) && r.status() === 204);
  const toastsSeen = await watchToasts(noah);
  expect(await toastsSeen()).toEqual([]);
  await publishButton(noah).click();
  const { title, description } = UPLOAD_TEXTS.publishing;
  await expect.poll(async () => (await toastsSeen()).some((t) => t.includes(title) && t.includes(description!))).toBe(true);
  await expect(publishButton(noah)).toBeDisabled();
  await expect(draftButton(noah)).toBeDisabled();
  await firstChunk;
  await noah.getByRole('button', { name: 'Pause' }).click();
  await expect(noah.getByRole('status').filter({ hasText: 'Paused' })).toBeVisible();
  const bar = progressBar(noah);
  const pausedAt = Number(await bar.getAttribute('aria-valuenow'));
  expect(pausedAt).toBeGreaterThan(0);
  expect(pausedAt).toBeLessThan(100);
  await screenshots(noah, 'create-upload-progress');

  // the server holds the first chunk
  const [uploadUrl] = await storedUploadUrls(noah);
  expect(uploadUrl).toBeTruthy();
  const offset = await serverOffset(noah, uploadUrl!);
  expect(offset).toBeGreaterThanOrEqual(5 * MB);
  expect(offset).toBeLessThan(size);

  // a reload: the unfinished upload is offered back; the same file continues from the server's offset
  await noah.unroute('**/uploads/*');
  await noah.reload();
  const unfinished = noah.getByRole('region', { name: 'Unfinished uploads' });
  await expect(unfinished).toContainText(name);
  await fileInput(noah).setInputFiles(video);
  const offer = noah.getByRole('region', { name: 'Unfinished upload' });
  await expect(offer).toContainText(`${Math.floor((offset / size) * 100)}%`);
  // the rest goes slowly too: the last chunk is held until the card has been seen uploading
  let releaseLast!: () => void;
  const lastHeld = new Promise<void>((resolve) => (releaseLast = resolve));
  await noah.route('**/uploads/*', async (route) => {
    const request = route.request();
    const end = Number(request.headers()['upload-offset'] ?? 0) + (request.postDataBuffer()?.length ?? 0);
    if (isTusPatch(request) && end >= size) await lastHeld;
    await route.continue().catch(() => undefined);
  });
  const resumedPatch = noah.waitForRequest(isTusPatch);
  const postId = waitForUploadedPostId(noah);
  await offer.getByRole('button', { name: 'Resume upload' }).click();
  expect(Number((await resumedPatch).headers()['upload-offset'])).toBe(offset);
  // the text chosen before the reload travels with it
  await expect(form(noah).getByLabel('Post text')).toHaveValue(text);

  // leaving /create while the bytes travel: the upload goes on, and its card at the front of the
  // feed says how far ('Uploading N%', issue 14 item 8), then 'Processing...' while the worker
  // transcodes, then the real post takes its place
  await noah.getByRole('banner').getByRole('link', { name: 'CreatorHub' }).click();
  await expect(noah).toHaveURL(/\/$/);
  const card = noah.getByRole('list', { name: 'Posts' }).getByRole('article').first();
  await expect(card).toHaveAttribute('data-optimistic-id', /.+/);
  await expect(card).toContainText(POST_TEXTS.publishing.title);
  await expect(card).toContainText(text);
  const stage = card.getByTestId('optimistic-stage');
  await expect(stage).toHaveText(/^Uploading \d+%$/);
  const shown = Number((await stage.textContent())?.match(/\d+/)?.[0]);
  expect(shown).toBeGreaterThanOrEqual(Math.floor((offset / size) * 100));
  expect(shown).toBeLessThan(100);
  await expect(card.getByRole('progressbar', { name: 'Upload' })).toHaveAttribute('aria-valuenow', String(shown));
  for (const [width, height] of [[1280, 800], [375, 812]] as const) {
    await noah.setViewportSize({ width, height });
    await card.screenshot({ path: path.join(artifacts, 'screens', `optimistic-card-uploading-${width}.png`) });
  }
  await noah.setViewportSize({ width: 1280, height: 800 });
  releaseLast();
  const realId = await postId;
  const real = noah.locator(`article[data-post-id="${realId}"]`);
  await expect(stage.or(real).first()).toBeVisible();
  expect(await storedUploadUrls(noah)).toEqual([]);
  if ((await real.count()) === 0) await expect(stage).toContainText(POST_TEXTS.publishing.description);
  // the transcode of 7 s of 720p: allow for a busy machine
  await expectToast(noah, POST_TEXTS.published, 60_000);
  await expect(real).toBeVisible({ timeout: 30_000 });
  await expect(real).toContainText(text);
  await expect(noah.getByText(POST_TEXTS.publishing.title, { exact: true })).toHaveCount(0);
  await removePost(noah, realId);
  await noah.context().close();
});
