import { expect, test, type Page } from '@playwright/test';
import { POST_EDIT_TEXTS } from '../../common/post-edit-texts';
import { POST_UNLOCK_TEXTS } from '../../common/post-unlock-texts';
import { formatRand } from '../../common/format';
import { UNLOCK_MIN } from '../../common/post-unlock';
import { bulkFan } from '../../scripts/seed/cast';
import { e2eBaseURL, newPageAs, toasts, trpcMutation, trpcQueryRaw } from './support/app';
import { publishPicture } from './support/publish';

/**
 * Issue 29 item 4 in a browser: leo edits his post's text through 'Edit post' in its menu (the
 * dialog comes prefilled; a price under the lowest is refused beside its field), and a fan with
 * the same post page open sees the new text without a reload. The post is made here for the test
 * and deleted after it, so no other spec sees it change.
 */
const SHOTS = '/work/shots/edit';
const FAN = bulkFan(8);

const postArticle = (page: Page, postId: string) => page.locator(`article[data-post-id="${postId}"]`).first();

test('the owner edits a post in its dialog and a fan with the post open sees the new text live', async ({ browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const before = `Before the edit ${stamp}`;
  const after = `After the edit ${stamp}`;
  const [leo, fan] = await Promise.all([newPageAs(browser, 'leo'), newPageAs(browser, FAN.email)]);
  const postId = await publishPicture(leo.request, `edit-${stamp}.png`, before, '#3ba56e');
  await expect
    .poll(async () => (await trpcQueryRaw(leo.request, 'posts.byId', { id: postId })).text, { timeout: 30_000 })
    .toContain('"status":"published"');

  try {
    await fan.goto(`/post/${postId}`);
    await expect(postArticle(fan, postId).getByText(before)).toBeVisible();
    // survives only as long as the page is not loaded again
    await fan.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    await leo.goto(`/post/${postId}`);
    await postArticle(leo, postId).getByRole('button', { name: 'Post options' }).click();
    await leo.getByRole('menuitem', { name: POST_EDIT_TEXTS.menuItem }).click();
    const dialog = leo.getByRole('alertdialog', { name: POST_EDIT_TEXTS.title });
    await expect(dialog).toBeVisible();
    const text = dialog.getByLabel(POST_EDIT_TEXTS.textLabel);
    await expect(text).toHaveValue(before);
    await expect(dialog.getByLabel(POST_EDIT_TEXTS.premiumLabel)).not.toBeChecked();
    await expect(dialog.getByLabel(POST_EDIT_TEXTS.payPerViewLabel)).not.toBeChecked();

    // a price under the lowest is refused beside its field, and nothing is saved
    await dialog.getByLabel(POST_EDIT_TEXTS.payPerViewLabel).check();
    await dialog.getByLabel(POST_UNLOCK_TEXTS.priceLabel).fill('5');
    for (const width of [1280, 375]) {
      await leo.setViewportSize({ width, height: width === 1280 ? 800 : 812 });
      await leo.screenshot({ path: `${SHOTS}/edit-post-dialog-${width}.png` });
    }
    await leo.setViewportSize({ width: 1280, height: 800 });
    await dialog.getByRole('button', { name: POST_EDIT_TEXTS.save }).click();
    await expect(dialog.getByText(POST_UNLOCK_TEXTS.priceTooLow(formatRand(UNLOCK_MIN)))).toBeVisible();
    await expect(dialog).toBeVisible();
    await leo.screenshot({ path: `${SHOTS}/edit-post-dialog-refused-1280.png` });
    await dialog.getByLabel(POST_EDIT_TEXTS.payPerViewLabel).uncheck();

    await text.fill(after);
    await dialog.getByRole('button', { name: POST_EDIT_TEXTS.save }).click();
    await expect(toasts(leo).getByText(POST_EDIT_TEXTS.saved.title)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(postArticle(leo, postId).getByText(after)).toBeVisible();

    // the fan's open page hears `post:updated` and shows the new text, on the same page load
    await expect(postArticle(fan, postId).getByText(after)).toBeVisible();
    await expect(postArticle(fan, postId).getByText(before)).toHaveCount(0);
    expect(await fan.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    // still free to see: the edit changed the text only
    expect((await fan.request.get(`/media/${postId}/web`)).status()).toBe(200);
  } finally {
    await trpcMutation(leo.request, e2eBaseURL(), 'posts.delete', { postId });
    await Promise.all([leo.context().close(), fan.context().close()]);
  }
});
