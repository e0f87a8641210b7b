import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTH_TEXTS, PROFILE_TEXTS, SHELL_TEXTS } from '../../common/texts';
import { e2eBaseURL, newPageAs, trpcMutation } from './support/app';
import { latestMailTo } from './support/outbox';

/**
 * Small texts (issue 14, item 10): a confirmation link opened twice says the address is already
 * confirmed and offers sign-in; the app's own route names that have no screen yet are the
 * not-found page, never 'Profile not found'.
 */

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');

async function shoot(page: Page, name: string) {
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(artifacts, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a confirmation link opened again says the address is already confirmed and offers sign-in', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const email = `twice.${stamp}@example.test`;
  const signedUp = await trpcMutation(request, e2eBaseURL(), 'auth.signUp', {
    email,
    password: 'a-good-password',
    username: `twice${stamp}`,
    firstName: 'Twice',
    surname: 'Clicked',
    dateOfBirth: '1990-02-03',
    acceptTerms: true,
  });
  expect(signedUp.status).toBe(200);
  const mail = await latestMailTo(email, { subject: /confirm/i });

  await page.goto(mail.link);
  await expect(page.getByRole('heading', { name: AUTH_TEXTS.emailConfirmed.title })).toBeVisible();

  // the same link again, as from the mail a second time
  await page.goto(mail.link);
  await expect(page.getByRole('heading', { name: AUTH_TEXTS.emailAlreadyConfirmed.title })).toBeVisible();
  await expect(page.getByText(AUTH_TEXTS.emailAlreadyConfirmed.description, { exact: true })).toBeVisible();
  await expect(page.getByText(AUTH_TEXTS.confirmLinkInvalid)).toHaveCount(0);
  await shoot(page, 'confirm-already-confirmed');
  await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signin$/);

  // a link that never was one is still 'invalid or expired'
  await page.goto('/auth/confirm?token=' + 'x'.repeat(43));
  await expect(page.getByText(AUTH_TEXTS.confirmLinkInvalid, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: AUTH_TEXTS.emailAlreadyConfirmed.title })).toHaveCount(0);
});

test('app route names lead to their own screens or the not-found page, never a profile lookup', async ({ browser }) => {
  const page = await newPageAs(browser, 'fan36@demo.test');
  const profileLookups: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('profiles.byUsername')) profileLookups.push(decodeURIComponent(r.url()));
  });

  // the app's own routes are real screens now
  for (const [address, heading] of [
    ['/messages', 'Messages'],
    ['/settings', 'Settings'],
    ['/subscribe', 'Upgrade to Premium'],
    // the admin overview (issue 47): its heading for anyone signed in, its links for admins only
    ['/admin', 'Admin'],
  ] as const) {
    await page.goto(address);
    await expect(page.getByRole('heading', { level: 1, name: heading }), address).toBeVisible();
    await expect(page.getByText(PROFILE_TEXTS.notFound.title)).toHaveCount(0);
  }
  // a reserved name without a screen, or a path under a route that has none: the 404 page
  for (const address of ['/api', '/settings/nothing-here']) {
    await page.goto(address);
    await expect(page.getByRole('heading', { level: 1, name: SHELL_TEXTS.notFound }), address).toBeVisible();
    await expect(page.getByText(PROFILE_TEXTS.notFound.title)).toHaveCount(0);
  }
  await shoot(page, 'not-found-messages');

  // from the app too: the top bar's Messages link
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Messages' }).click();
  await expect(page).toHaveURL(/\/messages$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  expect(profileLookups.filter((url) => /"username":"(messages|settings|subscribe|admin)"/i.test(url))).toEqual([]);

  // a real username is still a profile, and an unknown one still 'Profile not found'
  await page.goto('/ava');
  await expect(page.getByRole('heading', { level: 1, name: 'Ava Moreau' })).toBeVisible();
  await page.goto('/nobody-by-this-name');
  await expect(page.getByRole('heading', { level: 1, name: PROFILE_TEXTS.notFound.title })).toBeVisible();
  expect(profileLookups.some((url) => url.includes('"username":"nobody-by-this-name"'))).toBe(true);
  await page.context().close();
});
