import { expect, test } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { FILE_STATE_TEXTS } from '../../common/file-state-texts';
import { VAULT_USE_TEXTS as T } from '../../common/vault-use-texts';
import { flatPng } from '../helpers/media-fixtures';
import { bulkFan } from '../../scripts/seed/cast';
import { newPageAs, toasts } from './support/app';
import { withDatabase } from './support/retry-reset';
import { fileInput, fixtureDir, form, publishButton, waitForUploadedPostId, writeFixture } from './support/uploads';

const SHOTS = '/work/shots/vault2';

const originals = (postId: string) =>
  withDatabase(async (c) => (await c.query<{ position: number }>("select position from media_files where post_id = $1 and variant = 'original' order by position", [postId])).rows.map((r) => r.position));

/**
 * Deleting a file from the media vault (issue 29 item 3): noah posts two photos as one post; in her
 * vault, one photo's bin asks first and names the post it is in (a link); confirming takes it out
 * of the post, which keeps the other. The other photo, now that post's only file, is refused with
 * the post named, and stays.
 */
test('a creator deletes a vault file after being told where it is used; a post\'s last file is refused', async ({ browser }) => {
  test.setTimeout(120_000);
  await mkdir(SHOTS, { recursive: true });
  const id = Date.now().toString(36);
  const dir = await fixtureDir();
  const [first, second] = await Promise.all([
    writeFixture(dir, `keep-${id}.png`, await flatPng(400, 300, '#2e86c1')),
    writeFixture(dir, `drop-${id}.png`, await flatPng(420, 300, '#c0392b')),
  ]);
  const noah = await newPageAs(browser, 'noah', { at: '/create' });
  await fileInput(noah).setInputFiles([first!, second!]);
  await form(noah).getByLabel('Post text').fill(`A pair ${id}`);
  const postIdPromise = waitForUploadedPostId(noah);
  await publishButton(noah).click();
  const postId = await postIdPromise;
  // the form lists each file as the worker processes it, until every one is ready
  const processing = noah.getByRole('region', { name: FILE_STATE_TEXTS.title });
  for (const name of [`keep-${id}.png`, `drop-${id}.png`]) {
    await expect(processing.getByRole('listitem', { name }).getByTestId('file-state')).toHaveText(FILE_STATE_TEXTS.ready, { timeout: 60_000 });
  }
  await processing.scrollIntoViewIfNeeded();
  await noah.screenshot({ path: `${SHOTS}/upload-files-ready-1280.png` });
  await noah.setViewportSize({ width: 375, height: 800 });
  await processing.scrollIntoViewIfNeeded();
  await noah.screenshot({ path: `${SHOTS}/upload-files-ready-375.png` });
  await noah.setViewportSize({ width: 1280, height: 800 });
  await processing.getByRole('button', { name: FILE_STATE_TEXTS.dismiss }).click();
  await expect(processing).toHaveCount(0);
  await expect(async () => {
    const status = await withDatabase(async (c) => (await c.query('select status from posts where id = $1', [postId])).rows[0]?.status);
    expect(status).toBe('published');
  }).toPass({ timeout: 60_000 });
  expect(await originals(postId)).toEqual([0, 1]);

  await noah.goto('/create/vault');
  const grid = noah.getByRole('list', { name: 'Media vault' });
  await expect(grid.getByRole('button', { name: `Select drop-${id}.png` })).toBeVisible();
  await grid.getByRole('button', { name: T.delete(`drop-${id}.png`) }).click();
  const dialog = noah.getByRole('alertdialog');
  await expect(dialog.getByRole('heading', { name: T.deleteTitle })).toBeVisible();
  await expect(dialog.getByText(T.inPosts)).toBeVisible();
  await expect(dialog.getByRole('link', { name: `A pair ${id}` })).toHaveAttribute('href', `/post/${postId}`);
  await noah.screenshot({ path: `${SHOTS}/vault-delete-dialog-1280.png` });
  await noah.setViewportSize({ width: 375, height: 800 });
  await noah.screenshot({ path: `${SHOTS}/vault-delete-dialog-375.png` });
  await noah.setViewportSize({ width: 1280, height: 800 });
  // Cancel is focused first: Enter alone never deletes
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: T.confirm }).click();
  await expect(toasts(noah).getByText(T.deleted)).toBeVisible();
  await expect(grid.getByRole('button', { name: `Select drop-${id}.png` })).toHaveCount(0);
  expect(await originals(postId)).toEqual([0]);

  // the photo left is the post's only file: refused, the post named, nothing changed
  await grid.getByRole('button', { name: T.delete(`keep-${id}.png`) }).click();
  await expect(dialog.getByRole('link', { name: `A pair ${id}` })).toBeVisible();
  await dialog.getByRole('button', { name: T.confirm }).click();
  await expect(toasts(noah).getByText(`This file is the only file of 'A pair ${id}'`, { exact: false })).toBeVisible();
  await expect(grid.getByRole('button', { name: `Select keep-${id}.png` })).toBeVisible();
  expect(await originals(postId)).toEqual([0]);
  await noah.screenshot({ path: `${SHOTS}/vault-after-delete-1280.png`, fullPage: true });

  // the post shows the one photo left, without a carousel
  await noah.goto(`/post/${postId}`);
  await expect(noah.getByText(`A pair ${id}`)).toBeVisible();
  await expect(noah.getByTestId('carousel-position')).toHaveCount(0);
});

/**
 * A paid message from the vault (issue 29 item 3): noah, writing to a fan, takes a picture from his
 * vault (no upload), puts a price on it and sends; the fan sees the text and the picture locked at
 * that price, exactly as for an uploaded file.
 */
test('a creator sends a priced picture from the vault without uploading; the fan sees it locked', async ({ browser }) => {
  test.setTimeout(90_000);
  await mkdir(SHOTS, { recursive: true });
  const fan = bulkFan(31);
  const text = `From the vault ${Date.now().toString(36)}`;
  const noah = await newPageAs(browser, 'noah', { at: `/messages/${fan.username}` });
  let uploads = 0;
  noah.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/uploads') || path.startsWith('/message-attachments')) uploads += 1;
  });
  await noah.getByRole('button', { name: T.fromVault }).click();
  const picker = noah.getByRole('alertdialog', { name: T.pickTitle });
  const tiles = picker.getByRole('button', { name: /^Attach .*\.(jpg|jpeg|png|webp)$/ });
  await expect(tiles.first()).toBeVisible();
  await noah.screenshot({ path: `${SHOTS}/vault-picker-1280.png` });
  await tiles.first().click();
  await expect(picker).toHaveCount(0);
  const preview = noah.getByTestId('attachment-preview');
  await expect(preview).toContainText(T.fromVault);
  await noah.getByLabel('Price (optional)').fill('15');
  await noah.getByLabel('Message', { exact: true }).fill(text);
  await noah.setViewportSize({ width: 375, height: 800 });
  await noah.screenshot({ path: `${SHOTS}/vault-message-composer-375.png` });
  await noah.setViewportSize({ width: 1280, height: 800 });
  await noah.getByRole('button', { name: 'Send message' }).click();
  const mine = noah.getByRole('list', { name: 'Messages' }).getByTestId('message').filter({ has: noah.getByText(text, { exact: true }) });
  await expect(mine).toBeVisible();
  await expect(preview).toHaveCount(0);
  expect(uploads).toBe(0);

  const fanPage = await newPageAs(browser, fan.email, { at: '/messages/noah' });
  const theirs = fanPage.getByRole('list', { name: 'Messages' }).getByTestId('message').filter({ has: fanPage.getByText(text, { exact: true }) });
  await expect(theirs.getByRole('button', { name: 'Unlock for R15.00' })).toBeVisible();
  await fanPage.screenshot({ path: `${SHOTS}/vault-message-locked-1280.png` });
});
