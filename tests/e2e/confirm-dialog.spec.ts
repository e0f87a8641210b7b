import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postName } from '../../common/post-name';
import { POST_EDIT_TEXTS } from '../../common/post-edit-texts';
import { LINK_TEXTS, POST_TEXTS } from '../../common/texts';
import { newPageAs, toasts, trpcMutation, trpcQuery, trpcQueryRaw, type ApiPost } from './support/app';
import { publishPicture } from './support/publish';

/**
 * Destructive actions ask first (issue 14, item 3), from the keyboard alone: Delete Post opens one
 * confirmation dialog naming what will be lost; Escape (or Cancel) keeps the post and puts focus
 * back on the menu button; confirming deletes it. Deleting a link asks the same way. The post and
 * the link are theo's (a hidden creator: no one else sees them), made here for the test.
 */

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');

/** Waits until the worker has published the post, and returns it as its owner reads it. */
async function publishedPost(request: APIRequestContext, postId: string): Promise<ApiPost> {
  await expect
    .poll(async () => (await trpcQueryRaw(request, 'posts.byId', { id: postId })).text, { timeout: 30_000 })
    .toContain('"status":"published"');
  return trpcQuery<ApiPost>(request, 'posts.byId', { id: postId });
}

/** Presses Tab until the element has the focus (it must be reachable from the keyboard). */
async function tabTo(page: Page, name: string, max = 60) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((label) => document.activeElement?.getAttribute('aria-label') === label, name)) return;
  }
  throw new Error(`Tab never reached "${name}"`);
}

test('Delete Post asks first: Escape keeps the post and returns focus, confirming deletes it, all by keyboard', async ({ browser }) => {
  const theo = await newPageAs(browser, 'theo');
  const stamp = Date.now().toString(36);
  const postId = await publishPicture(theo.request, `confirm-${stamp}.png`, `Keyboard delete ${stamp}`, '#a53b6e');
  const post = await publishedPost(theo.request, postId);

  await theo.goto('/theo');
  const card = theo.locator(`article[data-post-id="${postId}"]`);
  await expect(card).toBeVisible();
  const options = card.getByRole('button', { name: 'Post options' });
  await expect(options).toBeVisible();
  // the newest post comes first: its menu button is the first the keyboard reaches
  await theo.locator('body').focus();
  await tabTo(theo, 'Post options');
  await expect(options).toBeFocused();

  // Enter opens the menu on its first item (Edit post); End reaches Delete Post, its last; Enter on
  // it opens the dialog, which names the post
  await theo.keyboard.press('Enter');
  await expect(theo.getByRole('menuitem', { name: POST_EDIT_TEXTS.menuItem })).toBeFocused();
  await theo.keyboard.press('End');
  await expect(theo.getByRole('menuitem', { name: POST_TEXTS.deletePost })).toBeFocused();
  await theo.keyboard.press('Enter');
  const dialog = theo.getByRole('alertdialog', { name: POST_TEXTS.deleteConfirm.title });
  await expect(dialog).toBeVisible();
  // untitled: named as every untitled post is (common/post-name.ts), after its creator
  expect(post.title).toBeNull();
  const me = await trpcQuery<{ displayName: string | null; username: string }>(theo.request, 'auth.me', undefined);
  await expect(dialog).toHaveAccessibleDescription(POST_TEXTS.deleteConfirm.description(postName({ title: null, creator: me })));
  const cancel = dialog.getByRole('button', { name: 'Cancel' });
  const confirm = dialog.getByRole('button', { name: POST_TEXTS.deleteConfirm.confirm });
  // Cancel first, so a stray Enter destroys nothing; Tab stays inside the dialog
  await expect(cancel).toBeFocused();
  await theo.keyboard.press('Tab');
  await expect(confirm).toBeFocused();
  await theo.keyboard.press('Tab');
  await expect(cancel).toBeFocused();
  await theo.keyboard.press('Shift+Tab');
  await expect(confirm).toBeFocused();
  for (const width of [1280, 375]) {
    await theo.setViewportSize({ width, height: width === 1280 ? 800 : 812 });
    await theo.screenshot({ path: path.join(artifacts, `confirm-delete-post-${width}.png`) });
  }
  await theo.setViewportSize({ width: 1280, height: 800 });

  // Escape: nothing deleted, focus back on the menu button
  await theo.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(options).toBeFocused();
  await expect(card).toBeVisible();
  expect((await trpcQuery<ApiPost>(theo.request, 'posts.byId', { id: postId })).id).toBe(postId);
  await expect(toasts(theo).getByText(POST_TEXTS.deleted.title, { exact: true })).toHaveCount(0);

  // again, and confirm: deleted
  await theo.keyboard.press('Enter');
  await expect(theo.getByRole('menuitem', { name: POST_EDIT_TEXTS.menuItem })).toBeFocused();
  await theo.keyboard.press('End');
  await expect(theo.getByRole('menuitem', { name: POST_TEXTS.deletePost })).toBeFocused();
  await theo.keyboard.press('Enter');
  await expect(cancel).toBeFocused();
  await theo.keyboard.press('Tab');
  await expect(confirm).toBeFocused();
  await theo.keyboard.press('Enter');
  await expect(toasts(theo).getByText(POST_TEXTS.deleted.title, { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(card).toHaveCount(0);
  const gone = await trpcQueryRaw(theo.request, 'posts.byId', { id: postId });
  expect(gone.status).toBe(404);
  await theo.context().close();
});

test('deleting a link asks first, naming it: Escape keeps it, confirming removes it', async ({ browser, baseURL }) => {
  const theo = await newPageAs(browser, 'theo');
  const title = `Zine shop ${Date.now().toString(36)}`;
  const added = await trpcMutation(theo.request, baseURL!, 'profiles.addLink', { title, url: 'https://theo-marsh.example/zines' });
  expect(added.status).toBe(200);

  await theo.goto('/theo?tab=links');
  const link = theo.getByRole('list', { name: 'Custom links' }).getByRole('link', { name: new RegExp(title) });
  await expect(link).toBeVisible();
  const trash = theo.getByRole('button', { name: `Delete link ${title}` });
  await trash.click();
  const dialog = theo.getByRole('alertdialog', { name: LINK_TEXTS.deleteConfirm.title });
  await expect(dialog).toHaveAccessibleDescription(LINK_TEXTS.deleteConfirm.description(title, 'theo-marsh.example'));
  for (const width of [1280, 375]) {
    await theo.setViewportSize({ width, height: width === 1280 ? 800 : 812 });
    await theo.screenshot({ path: path.join(artifacts, `confirm-delete-link-${width}.png`) });
  }
  await theo.setViewportSize({ width: 1280, height: 800 });

  await theo.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(trash).toBeFocused();
  await expect(link).toBeVisible();

  await trash.click();
  await dialog.getByRole('button', { name: LINK_TEXTS.deleteConfirm.confirm, exact: true }).click();
  await expect(toasts(theo).getByText(LINK_TEXTS.deleted, { exact: true })).toBeVisible();
  await expect(link).toHaveCount(0);
  await theo.context().close();
});
