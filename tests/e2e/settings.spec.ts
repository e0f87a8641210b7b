import { expect, test } from '@playwright/test';
import { AUTH_TEXTS, PROFILE_TEXTS } from '../../common/texts';
import { SETTINGS_TEXTS } from '../../common/settings-texts';
import { jpegWithExif } from '../helpers/media-fixtures';
import { e2eBaseURL, newPageAs, toasts, trpcMutation, trpcQuery } from './support/app';
import { latestMailTo } from './support/outbox';
import { publishPicture } from './support/publish';

/**
 * Issue 13 (settings, part A), one journey: a new user confirms their e-mail and sees Email
 * Verified; sets display name, bio, categories and avatar and sees them on the profile, in the
 * feed and in Explore; turns the profile private and another user gets the not-found text.
 */
test('a new creator fills in the profile, sees it everywhere, then goes private', async ({ page, browser }) => {
  // one long journey (sign-up, an upload and an avatar through the worker): more than the default 45 s on a busy machine
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const email = `settings.${stamp}@example.test`;
  const username = `set${stamp}`;
  const password = 'a-good-password';

  // sign up and confirm through the API and the mailed link (the sign-up form has its own spec)
  const signUp = await trpcMutation(page.request, e2eBaseURL(), 'auth.signUp', {
    email, password, username, firstName: 'Set', surname: 'Tings', dateOfBirth: '1990-01-01', acceptTerms: true,
  });
  expect(signUp.status).toBe(200);
  await page.goto((await latestMailTo(email, { subject: /confirm/i })).link);
  await expect(page.getByRole('heading', { name: AUTH_TEXTS.emailConfirmed.title })).toBeVisible();
  // the browser's cookies: page.request shares them with the page
  expect((await trpcMutation(page.request, e2eBaseURL(), 'auth.signIn', { email, password })).status).toBe(200);

  // every settings link leads somewhere real: the top bar's Settings, then the menu
  await page.goto('/settings/account/verification');
  await expect(page.getByRole('heading', { name: 'Verification', level: 1 })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Email Verification' }).getByText(SETTINGS_TEXTS.verified, { exact: true })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Phone Verification' }).getByText(SETTINGS_TEXTS.notVerified)).toBeVisible();

  // a creator with one post, so the profile shows in the feed and in Explore
  expect((await trpcMutation(page.request, e2eBaseURL(), 'creators.become', undefined)).status).toBe(200);
  const postId = await publishPicture(page.request, 'hello.png', `Hello from ${username}`);

  await page.goto('/settings');
  await page.getByRole('link', { name: /Personal Information/ }).click();
  await expect(page).toHaveURL(/\/settings\/personal-info$/);
  await page.getByLabel('Display name').fill('Settings Star');
  await page.getByLabel('Bio').fill('I make calm music for rainy days.');
  const category = page.getByRole('textbox', { name: 'Categories' });
  await category.fill('  Music  ');
  await category.press('Enter');
  await category.fill('music');
  await category.press('Enter');
  await expect(page.getByText(SETTINGS_TEXTS.categoryDuplicate)).toBeVisible();
  await category.fill('Art');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Your categories' }).getByRole('listitem')).toHaveText(['Music', 'Art']);

  await page.locator('#avatar-file').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: await jpegWithExif(600, 400) });
  await expect(toasts(page).getByText(SETTINGS_TEXTS.avatarUpdated)).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: SETTINGS_TEXTS.saveChanges }).click();
  await expect(toasts(page).getByText(SETTINGS_TEXTS.profileUpdated)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/${username}$`));

  // the profile
  await expect(page.getByRole('heading', { name: 'Settings Star', level: 1 })).toBeVisible();
  await expect(page.getByText('I make calm music for rainy days.')).toBeVisible();
  await expect(page.locator(`img[src^="/avatars/"]`).first()).toBeVisible();

  // the feed and Explore, as another user sees them
  const other = await newPageAs(browser, 'sam');
  await expect.poll(async () => (await other.request.get(`/trpc/posts.byId?input=${encodeURIComponent(JSON.stringify({ json: { id: postId } }))}`)).status(), { timeout: 20_000 }).toBe(200);
  await other.goto('/');
  const card = other.getByRole('article').filter({ hasText: `Hello from ${username}` });
  await expect(card.getByText('Settings Star', { exact: true })).toBeVisible();
  await expect(card.locator('img[src^="/avatars/"]')).toBeVisible();
  // Explore's creator cards carry the new name, categories and avatar
  const found = await trpcQuery<{ displayName: string; avatarUrl: string | null }[]>(other.request, 'explore.creators', { q: 'Settings Star', categories: [] });
  expect(found).toEqual([expect.objectContaining({ displayName: 'Settings Star', avatarUrl: expect.stringMatching(/^\/avatars\//) })]);

  // private: at once, the other user is told the profile does not exist
  await page.goto('/settings/account/privacy');
  await page.getByRole('radio', { name: /Private/ }).check();
  await page.getByRole('button', { name: SETTINGS_TEXTS.saveChanges }).click();
  await expect(toasts(page).getByText(SETTINGS_TEXTS.privacySaved)).toBeVisible();
  await other.goto(`/${username}`);
  await expect(other.getByText(PROFILE_TEXTS.notFound.title)).toBeVisible();
  await other.context().close();
});
