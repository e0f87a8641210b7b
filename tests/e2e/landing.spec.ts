import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatCompactCount } from '../../common/format';
import { BRAND, LANDING, SHELL_TEXTS } from '../../common/texts';
import { CREATORS, FANS } from '../../scripts/seed/cast';
import { appStarted } from './support/app';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');

const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });
const featured = (page: Page) => page.getByRole('region', { name: LANDING.featuredHeading });

/** Active subscribers the demo gives a creator: its bulk fans plus the named fans (not the lapsed ones). */
function demoSubscriberCount(username: string): number {
  const creator = CREATORS.find((c) => c.username === username)!;
  const named = FANS.filter((f) => f.subscribesTo.includes(username)).length;
  return creator.bulkSubscribers + named;
}

test('the landing page: hero texts, buttons to the right tabs', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(BRAND.name);
  await expect(page.getByRole('heading', { level: 1, name: LANDING.headline })).toBeVisible();
  await expect(page.getByText(LANDING.subline)).toBeVisible();

  await page.getByRole('link', { name: LANDING.signUpButton }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signup$/);
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Date of birth')).toBeVisible();

  await page.goto('/');
  await page.getByRole('main').getByRole('link', { name: LANDING.signInButton, exact: true }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signin$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Date of birth')).toHaveCount(0);
});

test('featured creators: the public demo creators with verified badges (verified or Premium) and subscriber counts', async ({ page }) => {
  await page.goto('/');
  const section = featured(page);
  await expect(section.getByRole('heading', { name: LANDING.featuredHeading })).toBeVisible();
  await expect(section.getByText(LANDING.featuredLine)).toBeVisible();

  const visible = CREATORS.filter((c) => c.visibility !== 'private' && c.visibility !== 'hidden');
  const hidden = CREATORS.filter((c) => c.visibility === 'private' || c.visibility === 'hidden');
  expect(hidden.length).toBeGreaterThan(0);

  const cards = section.getByRole('listitem');
  // Verified, then Premium, then longest-standing: the demo's public creators joined before any
  // creator another spec makes meanwhile, so they are exactly the first cards, in that order.
  const rank = (c: (typeof CREATORS)[number]) => (c.verified ? 2 : 0) + (c.premium ? 1 : 0);
  await expect(cards.nth(Math.min(visible.length, 6) - 1)).toBeVisible();
  expect(await cards.count()).toBeLessThanOrEqual(6);
  const shown = (await cards.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).slice(0, visible.length);
  expect([...shown].sort()).toEqual(visible.map((c) => `/${c.username}`).sort());
  const ranks = shown.map((href) => rank(visible.find((c) => `/${c.username}` === href)!));
  expect(ranks).toEqual([...ranks].sort((a, b) => b - a));

  for (const creator of visible) {
    const card = section.getByRole('link', { name: new RegExp(creator.displayName) });
    await expect(card).toHaveAttribute('href', `/${creator.username}`);
    // verified, or Premium (whose upgrade card promises the badge: issue 22)
    await expect(card.getByRole('img', { name: 'Verified' })).toHaveCount(creator.verified || creator.premium ? 1 : 0);
    const count = demoSubscriberCount(creator.username);
    await expect(card).toContainText(`${formatCompactCount(count)} ${count === 1 ? 'subscriber' : 'subscribers'}`);
    // no picture in the demo: the first letter stands in
    await expect(card).toContainText(creator.displayName[0]!);
  }
  for (const creator of hidden) {
    await expect(section.getByText(creator.displayName)).toHaveCount(0);
  }

  // verified creators come first
  const firstCard = cards.first();
  await expect(firstCard.getByRole('img', { name: 'Verified' })).toBeVisible();
});

test('the brand link on / refreshes the feed', async ({ page }) => {
  await page.goto('/');
  // the server-rendered page's link is a plain link until React has the page: a click before
  // that loads / afresh, without the refresh's toast
  await appStarted(page);
  await page.getByRole('banner').getByRole('link', { name: BRAND.name }).click();
  await expect(toasts(page).getByText(SHELL_TEXTS.feedRefreshed.title, { exact: true })).toBeVisible();
  await expect(toasts(page).getByText(SHELL_TEXTS.feedRefreshed.description, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test('desktop footer: about text, quick links, copyright', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer).toBeVisible();
  await expect(footer.getByText(BRAND.footerAbout)).toBeVisible();
  const quick = footer.getByRole('navigation', { name: 'Quick Links' });
  await expect(quick.getByRole('link', { name: 'Explore Creators' })).toHaveAttribute('href', '/explore');
  await expect(quick.getByRole('link', { name: 'Start Creating' })).toHaveAttribute('href', '/create');
  await expect(quick.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  await expect(quick.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
  await expect(quick.getByRole('link', { name: 'CSAE Policy' })).toHaveAttribute('href', '/csae-policy');
  await expect(footer.getByText(/©/)).toContainText(BRAND.name);
  // the mobile bottom bar is not shown on a desktop
  await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
});

test('policy pages', async ({ page }) => {
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('February 2025');
  await expect(page.getByRole('main')).toContainText('does not store your card data');
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/terms');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('non-refundable, except where the law requires');
  await expect(page.getByRole('main')).toContainText('18 years old');
  await page.getByRole('main').getByRole('link', { name: 'Privacy Policy' }).first().click();
  await expect(page).toHaveURL(/\/privacy$/);

  await page.goto('/csae-policy');
  await expect(page.getByRole('heading', { level: 1, name: /Child Sexual Abuse and Exploitation/ })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('zero-tolerance');
  await expect(page.getByRole('main').getByRole('link', { name: /@/ }).first()).toHaveAttribute('href', /^mailto:/);
});

test('an unknown path shows the not-found page with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: SHELL_TEXTS.notFound })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: SHELL_TEXTS.notFoundHome }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: LANDING.headline })).toBeVisible();
});

test('screenshots of the landing page', async ({ page }) => {
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/');
    await expect(featured(page).getByRole('listitem').first()).toBeVisible();
    await page.screenshot({ path: path.join(artifacts, `landing-${width}.png`), fullPage: true });
  }
});
