import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CREATOR_TEXTS, PROFILE_TEXTS } from '../../common/texts';
import { bulkFan, CREATORS } from '../../scripts/seed/cast';
import { findPost, imagesSettled, newPageAs, trpcMutation } from './support/app';

/**
 * Fans are not shown creator tools (issue 14, item 6): a fan's own profile has no Manage
 * Subscription Tier, Drafts tab, upgrade card or subscriber count; it offers Become a Creator and
 * their bookmarks. A creator's own profile keeps all of them. The fan is fan35 (no other spec
 * signs in as them); the bookmarked post, 'Palette of the week', is counted by no other spec;
 * maya's page is only read.
 */

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');

const header = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const tabs = (page: Page) => page.getByRole('tablist', { name: 'Profile sections' });
const upgradeCard = (page: Page) => page.getByRole('complementary', { name: 'Upgrade to Premium' });
const becomeCard = (page: Page) => page.getByRole('complementary', { name: CREATOR_TEXTS.becomeTitle });
const subscribeLinks = (page: Page) => page.getByRole('link', { name: new RegExp(`^(${PROFILE_TEXTS.subscribe}|${PROFILE_TEXTS.subscribeNow})$`) });

const FAN = bulkFan(34);
const BOOKMARKED = 'Palette of the week';

test('a fan’s own profile offers Become a Creator and their bookmarks, and none of the creator tools', async ({ browser, baseURL }) => {
  const page = await newPageAs(browser, FAN.email);
  const post = await findPost(page.request, BOOKMARKED);
  expect((await trpcMutation(page.request, baseURL!, 'bookmarks.add', { postId: post.id })).status).toBe(200);

  await page.goto(`/${FAN.username}`);
  const card = header(page, FAN.displayName);
  await expect(card.getByRole('heading', { level: 1, name: FAN.displayName })).toBeVisible();
  await expect(card.getByRole('link', { name: PROFILE_TEXTS.editProfile })).toHaveAttribute('href', '/settings/personal-info');

  // their bookmarks, straight away: the tab they land on
  await expect(tabs(page).getByRole('tab')).toHaveText([PROFILE_TEXTS.tabBookmarks, PROFILE_TEXTS.tabLinks]);
  await expect(tabs(page).getByRole('tab', { name: PROFILE_TEXTS.tabBookmarks })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('list', { name: 'Bookmarked posts' }).getByRole('article', { name: BOOKMARKED, exact: true })).toBeVisible();

  // Become a Creator, where the creator tools would be
  const become = becomeCard(page).getByRole('link', { name: CREATOR_TEXTS.becomeButton });
  await expect(become).toHaveAttribute('href', '/create');

  // none of the creator tools, no '0 subscribers'
  await expect(page.getByRole('link', { name: PROFILE_TEXTS.manageTier })).toHaveCount(0);
  await expect(upgradeCard(page)).toHaveCount(0);
  await expect(card.getByTestId('subscriber-count')).toHaveCount(0);
  await expect(card).not.toContainText(/subscribers?\b/);
  await expect(subscribeLinks(page)).toHaveCount(0);
  // the owner's tabs by address fall back to theirs
  await page.goto(`/${FAN.username}?tab=drafts`);
  await expect(tabs(page).getByRole('tab')).toHaveText([PROFILE_TEXTS.tabBookmarks, PROFILE_TEXTS.tabLinks]);
  await expect(tabs(page).getByRole('tab', { name: PROFILE_TEXTS.tabBookmarks })).toHaveAttribute('aria-selected', 'true');

  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/${FAN.username}`);
    await expect(page.getByRole('list', { name: 'Bookmarked posts' }).getByRole('article').first()).toBeVisible();
    await imagesSettled(page);
    await page.screenshot({ path: path.join(artifacts, `profile-fan-owner-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // the way there: /create shows becoming a creator
  await becomeCard(page).getByRole('link', { name: CREATOR_TEXTS.becomeButton }).click();
  await expect(page).toHaveURL(/\/create$/);
  await expect(page.getByRole('heading', { level: 1, name: CREATOR_TEXTS.becomeTitle })).toBeVisible();

  // someone else looking at a fan: nothing to subscribe to, no counts
  const visitor = await newPageAs(browser, null);
  await visitor.goto(`/${FAN.username}`);
  await expect(header(visitor, FAN.displayName).getByRole('heading', { level: 1, name: FAN.displayName })).toBeVisible();
  await expect(subscribeLinks(visitor)).toHaveCount(0);
  await expect(header(visitor, FAN.displayName).getByTestId('subscriber-count')).toHaveCount(0);
  await expect(becomeCard(visitor)).toHaveCount(0);
  await Promise.all([page.context().close(), visitor.context().close()]);
});

test('a creator’s own profile keeps the creator tools and the upgrade card', async ({ browser }) => {
  const maya = CREATORS.find((c) => c.username === 'maya')!;
  const page = await newPageAs(browser, 'maya', { at: '/maya' });
  const card = header(page, maya.displayName);
  await expect(card.getByRole('link', { name: PROFILE_TEXTS.manageTier })).toHaveAttribute('href', '/create');
  await expect(card.getByRole('link', { name: PROFILE_TEXTS.editProfile })).toBeVisible();
  await expect(card.getByTestId('subscriber-count')).toHaveText(/^\d+ subscribers?$/);
  await expect(upgradeCard(page)).toBeVisible();
  await expect(becomeCard(page)).toHaveCount(0);
  const drafts = maya.posts.filter((p) => p.draft).length;
  await expect(tabs(page).getByRole('tab')).toHaveText([
    PROFILE_TEXTS.tabContent,
    PROFILE_TEXTS.tabDrafts(drafts),
    'Scheduled',
    PROFILE_TEXTS.tabBookmarks,
    PROFILE_TEXTS.tabLinks,
  ]);
  await expect(tabs(page).getByRole('tab', { name: PROFILE_TEXTS.tabContent })).toHaveAttribute('aria-selected', 'true');
  await page.context().close();
});
