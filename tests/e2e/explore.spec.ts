import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXPLORE_CATEGORIES } from '../../common/enums';
import { LIMITS, PROFILE_LIMITS } from '../../common/limits';
import { AUTH_TEXTS, FEED_TEXTS } from '../../common/texts';
import { CREATORS } from '../../scripts/seed/cast';
import { demoEmail, imagesSettled, newPageAs, signIn, toasts, trpcQuery, type ApiPost } from './support/app';
import { scrollToEnd } from './support/paging';
import { DEMO_PASSWORD } from './support/env';

/**
 * Explore (issue 4) against the seeded demo. It only reads; other specs publish or delete a post
 * meanwhile (kai's draft, noah's 'Taxi rank beat'), so nothing here counts the whole catalogue.
 */

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');

const grid = (page: Page) => page.getByRole('list', { name: 'Explore posts' });
const tiles = (page: Page) => grid(page).getByRole('article');
const creatorCards = (page: Page) => page.getByTestId('explore-creator');
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search creators and posts' });
const chip = (page: Page, name: string) => page.getByRole('group', { name: 'Categories' }).getByRole('button', { name, exact: true });

const HIDDEN = CREATORS.filter((c) => c.visibility === 'private' || c.visibility === 'hidden');
/** Words that would find each hidden creator if it were public: its username, surname, a word of a post. */
const HIDDEN_WORDS: Record<string, string[]> = { iris: ['iris', 'Novak', 'sketchbook'], theo: ['theo', 'Marsh', 'CRT'] };
const byCategory = (category: string) => CREATORS.filter((c) => c.visibility === 'public' && c.categories.includes(category)).map((c) => c.username);

/** The usernames of the tiles on screen. */
async function tileCreators(page: Page): Promise<string[]> {
  return tiles(page).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-creator') ?? ''));
}

test('a visitor is sent to sign in with a toast, and comes back to /explore after signing in', async ({ page, browser }) => {
  await page.goto('/explore');
  await expect(toasts(page).getByText(AUTH_TEXTS.exploreRequiresAuth.title, { exact: true })).toBeVisible();
  await expect(toasts(page).getByText(AUTH_TEXTS.exploreRequiresAuth.description, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\?tab=signin$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  expect(await page.evaluate(() => sessionStorage.getItem('postAuthRedirect'))).toBe('/explore');

  await page.getByLabel('Email').fill(demoEmail('fan11@demo.test'));
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/explore$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Explore' })).toBeVisible();
  await expect(tiles(page).first()).toBeVisible();

  // the same from the top bar's link, with a search in the address kept for after signing in
  const other = await newPageAs(browser, null);
  await other.goto('/');
  await other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Explore' }).click();
  await expect(toasts(other).getByText(AUTH_TEXTS.exploreRequiresAuth.title, { exact: true })).toBeVisible();
  await expect(other).toHaveURL(/\/auth\?tab=signin$/);
  await other.goto('/explore?q=loop');
  await expect(other).toHaveURL(/\/auth\?tab=signin$/);
  await signIn(other, 'fan12@demo.test');
  // signIn() goes to /auth itself: the stored path still leads back
  await expect(other).toHaveURL(/\/explore\?q=loop$/);
  await expect(searchBox(other)).toHaveValue('loop');
  await other.context().close();
});

test('losing the session on /explore runs the gate again; signing out from it just goes home', async ({ browser }) => {
  const [here, elsewhere] = await Promise.all([newPageAs(browser, 'fan17@demo.test'), newPageAs(browser, 'fan17@demo.test')]);
  await here.goto('/explore');
  await expect(tiles(here).first()).toBeVisible();
  // the other browser ends every other session; the server tells this one over its socket
  const status = await elsewhere.evaluate(async () => {
    const res = await fetch('/trpc/auth.signOut', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ json: { scope: 'others' } }) });
    return res.status;
  });
  expect(status).toBe(200);
  await expect(toasts(here).getByText(AUTH_TEXTS.exploreRequiresAuth.title, { exact: true })).toBeVisible();
  await expect(here).toHaveURL(/\/auth\?tab=signin$/);
  await expect(toasts(here).getByText(AUTH_TEXTS.sessionExpired.title, { exact: true })).toHaveCount(0);
  await here.getByLabel('Email').fill('fan17@demo.test');
  await here.getByLabel('Password').fill(DEMO_PASSWORD);
  await here.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(here).toHaveURL(/\/explore$/);

  // signing out on purpose: home, 'Signed out', no gate toast
  await expect(tiles(here).first()).toBeVisible();
  await here.getByRole('button', { name: 'Sign out' }).click();
  await expect(toasts(here).getByText(AUTH_TEXTS.signedOut.title, { exact: true })).toBeVisible();
  await expect(here).toHaveURL(/\/$/);
  await here.waitForTimeout(500);
  await expect(toasts(here).getByText(AUTH_TEXTS.exploreRequiresAuth.title, { exact: true })).toHaveCount(0);
  await Promise.all([here.context().close(), elsewhere.context().close()]);
});

test('search finds a creator by part of the name in any case, and a post by a word of its text', async ({ browser }) => {
  const page = await newPageAs(browser, 'fan13@demo.test', { at: '/explore' });
  // the first page is 8 posts, more come as the end comes into view
  await expect(tiles(page)).toHaveCount(PROFILE_LIMITS.explorePageSize);
  expect(await scrollToEnd(page, tiles(page), 'explore-sentinel')).toBeGreaterThan(PROFILE_LIMITS.explorePageSize);

  for (const q of ['OKAF', 'okaf', 'kAfO']) {
    await searchBox(page).fill(q);
    await expect(page).toHaveURL(new RegExp(`/explore\\?q=${q}$`));
    await expect(creatorCards(page)).toHaveCount(1);
    await expect(creatorCards(page)).toContainText('Leo Okafor');
    await expect(creatorCards(page)).toHaveAttribute('href', '/leo');
    await expect(tiles(page).first()).toBeVisible();
    expect(new Set(await tileCreators(page))).toEqual(new Set(['leo']));
  }

  // a word of a post's text (and its stem): maya's 'Soldering station' ('Fume extraction matters')
  for (const q of ['extraction', 'SOLDERING']) {
    await searchBox(page).fill(q);
    await expect(page).toHaveURL(new RegExp(`/explore\\?q=${q}$`));
    await expect(tiles(page)).toHaveText([/Soldering station/]);
    await expect(tiles(page).first()).toHaveAttribute('data-creator', 'maya');
  }
  await expect(creatorCards(page)).toHaveCount(0);
  // the tile opens the post
  await tiles(page).first().getByRole('link', { name: 'Soldering station' }).first().click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('article', { name: 'Soldering station' })).toBeVisible();
  await page.goBack();
  await expect(searchBox(page)).toHaveValue('SOLDERING');

  await searchBox(page).fill('zzqx nothing matches this');
  await expect(page.getByText(FEED_TEXTS.noSearchResults, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page).toHaveURL(/\/explore$/);
  // the unfiltered grid comes back from the cache, with every page read before
  await expect(tiles(page).nth(PROFILE_LIMITS.explorePageSize)).toBeVisible();
  await page.context().close();
});

test('the category chips filter (any of them), combine with the search, and work from the keyboard', async ({ browser }) => {
  const page = await newPageAs(browser, 'fan14@demo.test', { at: '/explore' });
  await expect(page.getByRole('group', { name: 'Categories' }).getByRole('button', { pressed: false })).toHaveText([...EXPLORE_CATEGORIES]);

  await chip(page, 'Gaming').click();
  await expect(chip(page, 'Gaming')).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/\/explore\?categories=Gaming$/);
  await expect(creatorCards(page)).toHaveCount(byCategory('Gaming').length);
  await expect(tiles(page).first()).toBeVisible();
  await scrollToEnd(page, tiles(page), 'explore-sentinel');
  expect(new Set(await tileCreators(page))).toEqual(new Set(byCategory('Gaming')));

  // a second chip widens the match: creators with any of the two
  await chip(page, 'Music').click();
  await expect(page).toHaveURL(/\/explore\?categories=Music%2CGaming$|\/explore\?categories=Music,Gaming$/);
  await expect(creatorCards(page)).toHaveCount(new Set([...byCategory('Gaming'), ...byCategory('Music')]).size);
  await scrollToEnd(page, tiles(page), 'explore-sentinel');
  const both = new Set(await tileCreators(page));
  expect(both.has('leo') && both.has('kai')).toBe(true);
  for (const username of both) expect([...byCategory('Gaming'), ...byCategory('Music')]).toContain(username);

  // with a search: both must hold
  await searchBox(page).fill('loop');
  await expect(tiles(page)).toHaveText([/Late-night loop #12/]);
  await chip(page, 'Music').click();
  await chip(page, 'Gaming').click();
  await expect(page).toHaveURL(/\/explore\?q=loop$/);
  await chip(page, 'Art').click();
  await expect(page.getByText(FEED_TEXTS.noSearchResults, { exact: true })).toBeVisible();

  // keyboard: Tab reaches the chips, Space and Enter toggle them
  await chip(page, 'Art').focus();
  await page.keyboard.press('Space');
  await expect(chip(page, 'Art')).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('Tab');
  await expect(chip(page, 'Music')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(chip(page, 'Music')).toHaveAttribute('aria-pressed', 'true');
  await expect(tiles(page)).toHaveText([/Late-night loop #12/]);

  // the address alone restores the state
  await page.goto('/explore?categories=technology');
  await expect(chip(page, 'Technology')).toHaveAttribute('aria-pressed', 'true');
  await expect(tiles(page).first()).toBeVisible();
  expect(new Set(await tileCreators(page))).toEqual(new Set(byCategory('Technology')));
  await page.context().close();
});

test('private and hidden creators never appear, not even to themselves', async ({ browser }) => {
  for (const user of ['fan15@demo.test', 'iris']) {
    const page = await newPageAs(browser, user, { at: '/explore' });
    await expect(tiles(page).first()).toBeVisible();
    for (const creator of HIDDEN) {
      for (const q of HIDDEN_WORDS[creator.username]!) {
        await searchBox(page).fill(q);
        await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(q)}$`));
        await expect(page.getByText(FEED_TEXTS.noSearchResults, { exact: true })).toBeVisible();
        await expect(creatorCards(page)).toHaveCount(0);
      }
    }

    // nor anywhere in the API's answers, walked to the end, with and without the chips
    const hiddenNames = new Set(HIDDEN.map((c) => c.username));
    for (const categories of [[], [...EXPLORE_CATEGORIES]]) {
      let cursor: unknown = null;
      for (let i = 0; i < 20; i++) {
        const result = await trpcQuery<{ items: ApiPost[]; nextCursor: unknown }>(page.request, 'explore.search', { categories, cursor, limit: 20 });
        for (const post of result.items) expect(hiddenNames.has(post.creator.username), post.title ?? '').toBe(false);
        if (!result.nextCursor) break;
        cursor = result.nextCursor;
      }
      const creators = await trpcQuery<{ username: string }[]>(page.request, 'explore.creators', { categories });
      expect(creators.length).toBeGreaterThan(0);
      for (const c of creators) expect(hiddenNames.has(c.username)).toBe(false);
    }
    await page.context().close();
  }
});

test('8 skeleton cards while the grid loads', async ({ browser }) => {
  const page = await newPageAs(browser, 'fan16@demo.test');
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/trpc/**', async (route) => {
    if (route.request().url().includes('explore.search')) await held;
    await route.continue();
  });
  await page.goto('/explore');
  await expect(page.getByTestId('explore-skeleton')).toHaveCount(LIMITS.exploreSkeletons);
  await expect(page.getByRole('status').filter({ hasText: 'Loading posts' })).toHaveCount(1);
  release();
  await expect(tiles(page)).toHaveCount(PROFILE_LIMITS.explorePageSize);
  await expect(page.getByTestId('explore-skeleton')).toHaveCount(0);
  await page.context().close();
});

test('screenshots of Explore at 1280 and 375 px', async ({ browser }) => {
  const page = await newPageAs(browser, 'sam');
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/explore');
    await expect(tiles(page)).toHaveCount(PROFILE_LIMITS.explorePageSize);
    await imagesSettled(page);
    await page.screenshot({ path: path.join(artifacts, `explore-${width}.png`), fullPage: true });
    await page.goto('/explore?q=okafor&categories=Music');
    await expect(creatorCards(page)).toHaveCount(1);
    await expect(tiles(page).first()).toBeVisible();
    await imagesSettled(page);
    await page.screenshot({ path: path.join(artifacts, `explore-filtered-${width}.png`), fullPage: true });
  }
  await page.context().close();
});
