import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTH_TEXTS, BRAND, LANDING } from '../../common/texts';
import { DEMO_PASSWORD } from './support/env';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');

test.use({ viewport: { width: 375, height: 812 } });

const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });
const bottomBar = (page: Page) => page.getByRole('navigation', { name: 'Mobile' });

test('visitor: bottom bar instead of the desktop footer and links', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: LANDING.headline })).toBeVisible();

  const bar = bottomBar(page);
  await expect(bar).toBeVisible();
  await expect(bar.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(bar.getByRole('link', { name: 'Explore' })).toBeVisible();
  await expect(bar.getByRole('link', { name: 'Sign In' })).toBeVisible();
  // Create and Messages are for signed-in users only in the bottom bar
  await expect(bar.getByRole('link', { name: 'Create' })).toHaveCount(0);
  await expect(bar.getByRole('link', { name: 'Messages' })).toHaveCount(0);

  await expect(page.getByRole('contentinfo')).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('banner').getByRole('link', { name: BRAND.name })).toBeVisible();

  await bar.getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signin/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');

  // Home elsewhere navigates to /
  await bar.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('signed in: full bottom bar, the username dropdown with Settings and Sign Out', async ({ page }) => {
  await page.goto('/auth?tab=signin');
  await page.getByLabel('Email').fill('sam@demo.test');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  const bar = bottomBar(page);
  for (const name of ['Home', 'Explore', 'Create', 'Messages', 'Profile']) {
    await expect(bar.getByRole('link', { name })).toBeVisible();
  }
  await expect(bar.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/sam');
  await expect(bar.getByRole('link', { name: 'Sign In' })).toHaveCount(0);

  // the dropdown works from the keyboard (Radix menu): Enter opens it, focus moves into it
  const trigger = page.getByRole('banner').getByRole('button', { name: /sam/ });
  await expect(trigger).toBeVisible();
  await trigger.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Sign Out' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(trigger).toBeFocused();

  await page.screenshot({ path: path.join(artifacts, 'landing-375-signed-in.png'), fullPage: false });

  await trigger.click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(toasts(page).getByText(AUTH_TEXTS.signedOut.title, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(bar.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(bar.getByRole('link', { name: 'Messages' })).toHaveCount(0);
});

test('screenshots at 375 px', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('region', { name: LANDING.featuredHeading }).getByRole('listitem').first()).toBeVisible();
  await page.screenshot({ path: path.join(artifacts, 'mobile-landing-375.png'), fullPage: true });
  await page.goto('/auth?tab=signup');
  await expect(page.getByLabel('Date of birth')).toBeVisible();
  await page.screenshot({ path: path.join(artifacts, 'mobile-auth-signup-375.png'), fullPage: true });
});
