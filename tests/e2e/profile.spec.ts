import { expect, test, type Locator, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS } from '../../common/limits';
import { LINK_TEXTS, POST_TEXTS, PROFILE_TEXTS, FEED_TEXTS } from '../../common/texts';
import { CREATORS, FANS } from '../../scripts/seed/cast';
import { appStarted, imagesSettled, newPageAs, toasts, trpcQuery, trpcQueryRaw, type ApiPost } from './support/app';
import { scrollToEnd } from './support/paging';

/**
 * Creator profiles (issue 4) against the seeded demo. Specs run two at a time on one database, so
 * what this file changes nobody else reads: kai's draft 'Jam entry title screen' (published
 * here), kai's links and social links, leo's upgrade card (dismissed here). maya's upgrade card is
 * left alone for the owner screenshots. ava is only read.
 */

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');

const DRAFT = 'Jam entry title screen';

const header = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const tabs = (page: Page) => page.getByRole('tablist', { name: 'Profile sections' });
const postList = (page: Page) => page.getByRole('list', { name: 'Posts', exact: true });
const mediaGrid = (page: Page) => page.getByRole('list', { name: 'Media', exact: true });
const article = (scope: Page | Locator, title: string) => scope.getByRole('article', { name: title, exact: true });
const searchBox = (page: Page) => page.getByRole('searchbox');
const subscribeNow = (page: Page) => page.getByRole('complementary').filter({ has: page.getByRole('link', { name: PROFILE_TEXTS.subscribeNow }) });

function creator(username: string) {
  return CREATORS.find((c) => c.username === username)!;
}

/** Active subscribers the demo gives a creator: its bulk fans plus the named fans (not the lapsed ones). */
function demoSubscriberCount(username: string): number {
  const named = FANS.filter((f) => f.subscribesTo.includes(username)).length;
  return creator(username).bulkSubscribers + named;
}

const published = (username: string) => creator(username).posts.filter((p) => !p.draft);

test('a visitor sees a creator’s header, posts with premium ones locked, the media grid and the links', async ({ page }) => {
  const ava = creator('ava');
  await page.goto('/ava');
  const card = header(page, ava.displayName);
  await expect(card.getByRole('heading', { level: 1, name: ava.displayName })).toBeVisible();
  await expect(page).toHaveTitle(/Ava Moreau/);
  await expect(card.getByText('@ava', { exact: true })).toBeVisible();
  await expect(card.getByRole('img', { name: 'Verified' })).toBeVisible();
  await expect(card.getByText(ava.bio)).toBeVisible();
  // no picture in the demo: the first letter stands in
  await expect(card.getByText('A', { exact: true })).toBeVisible();
  await expect(card.getByRole('list', { name: 'Categories' }).getByRole('link', { name: 'Art' })).toHaveAttribute('href', '/explore?categories=Art');
  const subscribers = demoSubscriberCount('ava');
  await expect(card.getByTestId('subscriber-count')).toHaveText(`${subscribers} subscribers`);
  await expect(card.getByTestId('post-count')).toHaveText(`${published('ava').length} posts`);

  // social links: usernames become profile addresses, every one opens in a new tab
  const social = card.getByRole('list', { name: 'Social links' });
  const expected = [
    [/^Twitter:/, `https://x.com/${ava.social.twitter}`],
    [/^Instagram:/, `https://www.instagram.com/${ava.social.instagram}/`],
    [/^Website:/, ava.social.website!],
  ] as const;
  for (const [name, href] of expected) {
    const link = social.getByRole('link', { name });
    await expect(link).toHaveAttribute('href', href);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  }

  // a visitor: Subscribe and the Subscribe Now card, no Message, none of the owner's buttons or tabs
  await expect(card.getByRole('link', { name: PROFILE_TEXTS.subscribe, exact: true })).toHaveAttribute('href', '/ava/subscribe');
  await expect(subscribeNow(page).getByRole('link', { name: PROFILE_TEXTS.subscribeNow })).toHaveAttribute('href', '/ava/subscribe');
  for (const name of [PROFILE_TEXTS.message, PROFILE_TEXTS.editProfile, PROFILE_TEXTS.manageTier]) {
    await expect(page.getByRole('link', { name })).toHaveCount(0);
  }
  await expect(tabs(page).getByRole('tab')).toHaveText([PROFILE_TEXTS.tabContent, PROFILE_TEXTS.tabLinks]);
  await expect(tabs(page).getByRole('tab', { name: PROFILE_TEXTS.tabContent })).toHaveAttribute('aria-selected', 'true');

  // Content: 5 per page, then the rest as the end comes into view
  const posts = postList(page).getByRole('article');
  await expect(posts).toHaveCount(5);
  expect(await scrollToEnd(page, posts, 'profile-sentinel')).toBe(published('ava').length);
  // premium posts are locked for a visitor, the others show their media
  for (const post of published('ava')) {
    const card = article(postList(page), post.title);
    if (post.premium) {
      await expect(card.getByText(POST_TEXTS.premiumOverlay.title, { exact: true })).toBeVisible();
      await expect(card.getByRole('link', { name: POST_TEXTS.premiumOverlay.description })).toHaveAttribute('href', '/ava/subscribe');
    } else {
      await expect(card.getByText(POST_TEXTS.premiumOverlay.title, { exact: true })).toHaveCount(0);
    }
  }
  const locked = article(postList(page), 'Brush pack vol. 3');
  const srcs = await locked.locator('img').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('src') ?? ''));
  expect(srcs.filter((s) => s.startsWith('/media/')).every((s) => s.endsWith('/preview'))).toBe(true);

  // Media: image and video tiles only, their count on the toggle
  const mediaPosts = published('ava').filter((p) => p.kind === 'image' || p.kind === 'video');
  const mediaToggle = page.getByRole('button', { name: /^Media/ });
  await expect(mediaToggle).toHaveText(`Media ${mediaPosts.length}`);
  await mediaToggle.click();
  await expect(mediaToggle).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/\/ava\?view=media$/);
  const tiles = mediaGrid(page).getByRole('listitem');
  await expect(tiles).toHaveCount(mediaPosts.length);
  await expect(mediaGrid(page).getByText(POST_TEXTS.premiumOverlay.title, { exact: true })).toHaveCount(mediaPosts.filter((p) => p.premium).length);
  await expect(mediaGrid(page).getByRole('link', { name: 'Golden hour study' })).toHaveAttribute('href', /^\/post\/[0-9a-f-]{36}$/);
  await page.getByRole('button', { name: /^Posts/ }).click();
  await expect(page).toHaveURL(/\/ava$/);

  // Links, from the keyboard: the tabs follow the arrow keys
  await tabs(page).getByRole('tab', { name: PROFILE_TEXTS.tabContent }).focus();
  await page.keyboard.press('ArrowRight');
  const linksTab = tabs(page).getByRole('tab', { name: PROFILE_TEXTS.tabLinks });
  await expect(linksTab).toBeFocused();
  await expect(linksTab).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/ava\?tab=links$/);
  const custom = page.getByRole('list', { name: 'Custom links' });
  for (const link of ava.links) {
    const a = custom.getByRole('link', { name: new RegExp(link.title) });
    await expect(a).toHaveAttribute('href', link.url);
    await expect(a).toHaveAttribute('target', '_blank');
    await expect(a).toHaveAttribute('rel', 'noopener noreferrer');
  }
  await expect(page.getByRole('button', { name: /Delete link/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit social links' })).toHaveCount(0);
});

test('search within a profile: debounced, words and hashtags, in the URL; hashtag links land on it', async ({ page }) => {
  // the page's timers run on a clock the test holds: how fast keys arrive on a busy machine cannot
  // split the word into several searches (the debounce is what is tested, not the machine)
  await page.clock.install();
  await page.goto('/ava');
  await expect(postList(page).getByRole('article')).toHaveCount(5);
  // the server-rendered page shows its posts before its scripts run; keys typed before React has
  // the page would reach no handler (and a paused clock would hold the scripts' start)
  await appStarted(page);

  // one request for the whole word, not one per keystroke
  const searches: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.includes('profiles.posts')) return;
    const input = url.searchParams.get('input') ?? '';
    const q = /"q":"([^"]*)"/.exec(input)?.[1];
    if (q) searches.push(q);
  });
  await page.clock.pauseAt(Date.now() + 60_000);
  await searchBox(page).pressSequentially('sunsets');
  // nothing goes out while the keys come in, one search once the typing has rested for the debounce
  await page.clock.runFor(LIMITS.profileSearchDebounceMs - 50);
  await expect(page).not.toHaveURL(/q=/);
  await page.clock.runFor(100);
  await page.clock.resume();
  await expect(page).toHaveURL(/\/ava\?q=sunsets$/);
  // stemmed: 'sunsets' finds the post tagged #sunset
  await expect(postList(page).getByRole('article')).toHaveText([/Golden hour study/]);
  expect(searches).toEqual(['sunsets']);
  await expect(page.getByRole('status').filter({ hasText: 'Showing results for' })).toContainText('sunsets');

  await searchBox(page).fill('nothing-here-at-all');
  await expect(page.getByText(FEED_TEXTS.noSearchResults, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page).toHaveURL(/\/ava$/);
  await expect(postList(page).getByRole('article')).toHaveCount(5);

  // a hashtag in a post goes to /ava?q=%23timelapse, which the box and the list follow
  const timelapse = article(postList(page), 'Timelapse: harbour at dusk');
  await timelapse.getByRole('link', { name: '#timelapse' }).click();
  await expect(page).toHaveURL(/\/ava\?q=%23timelapse$/);
  await expect(searchBox(page)).toHaveValue('#timelapse');
  await expect(postList(page).getByRole('article')).toHaveText([/Timelapse: harbour at dusk/]);

  // the search works on the media grid too
  await page.getByRole('button', { name: /^Media/ }).click();
  await expect(mediaGrid(page).getByRole('listitem')).toHaveCount(1);
});

test('the owner publishes a draft, adds and deletes a link, edits social links', async ({ browser, request }) => {
  const kai = creator('kai');
  const page = await newPageAs(browser, 'kai', { at: '/kai' });
  const card = header(page, kai.displayName);
  await expect(card.getByRole('link', { name: PROFILE_TEXTS.manageTier })).toHaveAttribute('href', '/create');
  await expect(card.getByRole('link', { name: PROFILE_TEXTS.editProfile })).toHaveAttribute('href', '/settings/personal-info');
  for (const name of [PROFILE_TEXTS.message, PROFILE_TEXTS.subscribe, PROFILE_TEXTS.subscribeNow]) {
    await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByText(PROFILE_TEXTS.subscribed, { exact: true })).toHaveCount(0);
  // kai is premium: no upgrade card
  await expect(page.getByRole('complementary', { name: 'Upgrade to Premium' })).toHaveCount(0);
  const drafts = kai.posts.filter((p) => p.draft);
  await expect(tabs(page).getByRole('tab')).toHaveText([
    PROFILE_TEXTS.tabContent,
    PROFILE_TEXTS.tabDrafts(drafts.length),
    'Scheduled',
    PROFILE_TEXTS.tabBookmarks,
    PROFILE_TEXTS.tabLinks,
  ]);

  // Bookmarks: kai has none
  await tabs(page).getByRole('tab', { name: PROFILE_TEXTS.tabBookmarks }).click();
  await expect(page.getByText(FEED_TEXTS.noBookmarks, { exact: true })).toBeVisible();

  // Drafts: publish one; it moves to Content, which is selected
  await tabs(page).getByRole('tab', { name: PROFILE_TEXTS.tabDrafts(drafts.length) }).click();
  const draft = article(page.getByRole('list', { name: 'Drafts' }), DRAFT);
  await expect(draft).toBeVisible();
  await draft.getByRole('button', { name: `Publish ${DRAFT}` }).click();
  await expect(toasts(page).getByText(PROFILE_TEXTS.published, { exact: true })).toBeVisible();
  await expect(tabs(page).getByRole('tab', { name: PROFILE_TEXTS.tabContent })).toHaveAttribute('aria-selected', 'true');
  await expect(article(postList(page), DRAFT)).toBeVisible();
  await expect(card.getByTestId('post-count')).toHaveText(`${published('kai').length + 1} posts`);
  await tabs(page).getByRole('tab', { name: PROFILE_TEXTS.tabDrafts(drafts.length - 1) }).click();
  await expect(page.getByText(FEED_TEXTS.noDrafts, { exact: true })).toBeVisible();
  // and everyone sees it now
  const visible = await trpcQuery<{ items: ApiPost[] }>(request, 'profiles.posts', { username: 'kai', limit: 20 });
  expect(visible.items.map((p) => p.title)).toContain(DRAFT);

  // Links: both fields are needed, then the link is added, opens in a new tab, and is deleted
  await tabs(page).getByRole('tab', { name: PROFILE_TEXTS.tabLinks }).click();
  const form = page.getByRole('form', { name: 'Add a link' });
  await form.getByLabel('Title').fill('Merch table');
  await form.getByRole('button', { name: 'Add link' }).click();
  await expect(toasts(page).getByText(LINK_TEXTS.fieldsRequired, { exact: true })).toBeVisible();
  await expect(form.getByLabel('URL')).toBeFocused();
  await form.getByLabel('URL').fill('kai-jensen.example/merch');
  await form.getByRole('button', { name: 'Add link' }).click();
  await expect(toasts(page).getByText(LINK_TEXTS.added, { exact: true })).toBeVisible();
  const custom = page.getByRole('list', { name: 'Custom links' });
  const merch = custom.getByRole('link', { name: /Merch table/ });
  await expect(merch).toHaveAttribute('href', 'https://kai-jensen.example/merch');
  await expect(merch).toHaveAttribute('target', '_blank');
  await expect(merch).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(form.getByLabel('Title')).toHaveValue('');
  // deleting asks first, naming the link: Cancel keeps it and gives the focus back
  const deleteMerch = page.getByRole('button', { name: 'Delete link Merch table' });
  await deleteMerch.click();
  const confirm = page.getByRole('alertdialog', { name: LINK_TEXTS.deleteConfirm.title });
  await expect(confirm).toHaveAccessibleDescription(LINK_TEXTS.deleteConfirm.description('Merch table', 'kai-jensen.example'));
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(deleteMerch).toBeFocused();
  await expect(merch).toBeVisible();
  await expect(toasts(page).getByText(LINK_TEXTS.deleted, { exact: true })).toHaveCount(0);
  await deleteMerch.click();
  await confirm.getByRole('button', { name: LINK_TEXTS.deleteConfirm.confirm, exact: true }).click();
  await expect(toasts(page).getByText(LINK_TEXTS.deleted, { exact: true })).toBeVisible();
  await expect(merch).toHaveCount(0);
  await expect(custom.getByRole('link', { name: new RegExp(kai.links[0]!.title) })).toBeVisible();

  // Social links: an invalid value is refused beside its field; valid ones are saved and shown
  await page.getByRole('button', { name: 'Edit social links' }).click();
  const social = page.getByRole('form', { name: 'Edit social links' });
  await social.getByLabel('Twitter').fill('not a name!');
  await social.getByRole('button', { name: 'Save social links' }).click();
  await expect(social.getByText(LINK_TEXTS.twitterInvalid)).toBeVisible();
  await expect(social.getByLabel('Twitter')).toHaveAttribute('aria-invalid', 'true');
  await social.getByLabel('Twitter').fill('@kai_speed');
  await social.getByLabel('Instagram').fill('https://instagram.com/kai.runs');
  await social.getByLabel('YouTube').fill('youtube.com/@kairuns');
  await social.getByLabel('Website').fill('kai-jensen.example');
  await social.getByRole('button', { name: 'Save social links' }).click();
  await expect(toasts(page).getByText(LINK_TEXTS.socialUpdated, { exact: true })).toBeVisible();
  await expect(social).toHaveCount(0);

  const hrefs = {
    Twitter: 'https://x.com/kai_speed',
    Instagram: 'https://www.instagram.com/kai.runs/',
    YouTube: 'https://youtube.com/@kairuns',
    Website: 'https://kai-jensen.example',
  };
  const checkSocial = async (p: Page) => {
    const icons = header(p, kai.displayName).getByRole('list', { name: 'Social links' });
    for (const [label, href] of Object.entries(hrefs)) {
      const link = icons.getByRole('link', { name: new RegExp(`^${label}:`) });
      await expect(link).toHaveAttribute('href', href);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  };
  await checkSocial(page);
  await expect(page.getByRole('list', { name: 'Social profiles' }).getByRole('link', { name: /Twitter/ })).toContainText('@kai_speed');
  // stored: after a reload, and for a visitor
  await page.reload();
  await checkSocial(page);
  const visitor = await newPageAs(browser, null);
  await visitor.goto('/kai');
  await checkSocial(visitor);
  await Promise.all([page.context().close(), visitor.context().close()]);
});

test('a non-premium owner sees the upgrade card and dismisses it for good', async ({ browser }) => {
  const page = await newPageAs(browser, 'leo', { at: '/leo' });
  const upgrade = page.getByRole('complementary', { name: 'Upgrade to Premium' });
  await expect(upgrade).toBeVisible();
  for (const perk of PROFILE_TEXTS.upgradeCardPerks) await expect(upgrade).toContainText(perk, { ignoreCase: true });
  await expect(upgrade.getByRole('link', { name: 'Upgrade to Premium' })).toHaveAttribute('href', '/subscribe');
  const dismissed = page.waitForResponse((r) => r.url().includes('profiles.dismissUpgradeCard'));
  await upgrade.getByRole('button', { name: 'Dismiss upgrade card' }).click();
  await expect(upgrade).toHaveCount(0);
  expect((await dismissed).ok()).toBe(true);
  await page.reload();
  await expect(header(page, 'Leo Okafor')).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Upgrade to Premium' })).toHaveCount(0);
  await page.context().close();
});

test('a private or hidden creator is not found for anyone else, and the API gives nothing of it', async ({ browser }) => {
  const lena = await newPageAs(browser, 'lena');
  for (const username of ['iris', 'theo', 'nobody-by-this-name']) {
    await lena.goto(`/${username}`);
    await expect(lena.getByRole('heading', { level: 1, name: PROFILE_TEXTS.notFound.title })).toBeVisible();
    await expect(lena.getByText(PROFILE_TEXTS.notFound.description, { exact: true })).toBeVisible();
    await expect(lena.getByRole('tablist')).toHaveCount(0);

    for (const [procedure, input] of [
      ['profiles.byUsername', { username }],
      ['profiles.posts', { username }],
      ['profiles.posts', { username, kind: 'media' }],
    ] as const) {
      const answer = await trpcQueryRaw(lena.request, procedure, input);
      expect(answer.status, `${procedure} ${username}`).toBe(404);
      expect(answer.text).toContain(PROFILE_TEXTS.notFound.title);
      const who = CREATORS.find((c) => c.username === username);
      if (who) {
        expect(answer.text).not.toContain(who.displayName);
        for (const post of who.posts) expect(answer.text).not.toContain(post.title);
      }
    }
    await lena.goto(`/${username}/content`);
    await expect(lena.getByRole('heading', { level: 1, name: PROFILE_TEXTS.creatorNotFound })).toBeVisible();
  }
  // nor for a visitor
  const visitor = await newPageAs(browser, null);
  expect((await trpcQueryRaw(visitor.request, 'profiles.byUsername', { username: 'iris' })).status).toBe(404);
  await visitor.goto('/iris');
  await expect(visitor.getByRole('heading', { level: 1, name: PROFILE_TEXTS.notFound.title })).toBeVisible();

  // the owner sees her own page
  const iris = await newPageAs(browser, 'iris', { at: '/iris' });
  await expect(header(iris, 'Iris Novak').getByRole('heading', { level: 1, name: 'Iris Novak' })).toBeVisible();
  await expect(article(postList(iris), 'Sketchbook, page 41')).toBeVisible();

  // an empty username
  await visitor.goto('/%20');
  await expect(visitor.getByRole('heading', { level: 1, name: PROFILE_TEXTS.usernameRequired })).toBeVisible();
  await Promise.all([lena.context().close(), visitor.context().close(), iris.context().close()]);
});

test('Subscribed with a checkmark for a subscriber, Subscribe for anyone else; Message for signed-in visitors', async ({ browser }) => {
  const [sam, lena] = await Promise.all([newPageAs(browser, 'sam'), newPageAs(browser, 'lena')]);
  await Promise.all([sam.goto('/ava'), lena.goto('/ava')]);
  for (const p of [sam, lena]) {
    await expect(postList(p).getByRole('article')).toHaveCount(5);
    await scrollToEnd(p, postList(p).getByRole('article'), 'profile-sentinel');
  }

  const samCard = header(sam, 'Ava Moreau');
  await expect(samCard.getByTestId('subscribed')).toHaveText(PROFILE_TEXTS.subscribed);
  // a checkmark, and the chevron that says it opens the subscription (subscriptions.spec.ts)
  await expect(samCard.getByTestId('subscribed').locator('svg')).toHaveCount(2);
  await expect(samCard.getByRole('link', { name: PROFILE_TEXTS.subscribe, exact: true })).toHaveCount(0);
  await expect(subscribeNow(sam)).toHaveCount(0);
  await expect(samCard.getByRole('link', { name: PROFILE_TEXTS.message })).toHaveAttribute('href', '/messages/ava');
  // the subscription unlocks the premium posts too
  await expect(article(postList(sam), 'Brush pack vol. 3').getByText(POST_TEXTS.premiumOverlay.title)).toHaveCount(0);

  const lenaCard = header(lena, 'Ava Moreau');
  await expect(lenaCard.getByRole('link', { name: PROFILE_TEXTS.subscribe, exact: true })).toHaveAttribute('href', '/ava/subscribe');
  await expect(lenaCard.getByTestId('subscribed')).toHaveCount(0);
  await expect(subscribeNow(lena)).toBeVisible();
  await expect(lenaCard.getByRole('link', { name: PROFILE_TEXTS.message })).toHaveAttribute('href', '/messages/ava');
  await expect(article(postList(lena), 'Brush pack vol. 3').getByText(POST_TEXTS.premiumOverlay.title)).toBeVisible();
  await Promise.all([sam.context().close(), lena.context().close()]);
});

test('/{username}/content lists the creator’s content as a grid of tiles', async ({ page }) => {
  // pages of 5, like the Content tab (a short grid may ask for the next page at once)
  const pages: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('profiles.posts')) pages.push(decodeURIComponent(request.url()));
  });
  await page.goto('/ava/content');
  await expect(page.getByRole('heading', { level: 1, name: 'Ava Moreau' })).toBeVisible();
  const tiles = page.getByRole('list', { name: 'Content' }).getByRole('listitem');
  await expect(tiles.first()).toBeVisible();
  expect(await scrollToEnd(page, tiles, 'content-sentinel')).toBe(published('ava').length);
  expect(new Set(pages).size).toBe(Math.ceil(published('ava').length / 5));
  for (const url of pages) expect(url).toContain('"limit":5');
  await page.getByRole('list', { name: 'Content' }).getByRole('link', { name: 'Golden hour study' }).click();
  await expect(page).toHaveURL(/\/post\/[0-9a-f-]{36}$/);
  await expect(article(page, 'Golden hour study')).toBeVisible();
  await page.goBack();
  await page.getByRole('link', { name: 'View profile' }).click();
  await expect(page).toHaveURL(/\/ava$/);
});

test('screenshots: a profile for a visitor and for its owner at 1280 and 375 px', async ({ browser }) => {
  const visitor = await newPageAs(browser, null);
  const owner = await newPageAs(browser, 'maya');
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    for (const p of [visitor, owner]) await p.setViewportSize({ width, height });

    await visitor.goto('/ava');
    await expect(postList(visitor).getByRole('article').first()).toBeVisible();
    await imagesSettled(visitor);
    await visitor.screenshot({ path: path.join(artifacts, `profile-visitor-${width}.png`) });
    await visitor.screenshot({ path: path.join(artifacts, `profile-visitor-full-${width}.png`), fullPage: true });

    await owner.goto('/maya');
    await expect(owner.getByRole('complementary', { name: 'Upgrade to Premium' })).toBeVisible();
    await expect(postList(owner).getByRole('article').first()).toBeVisible();
    await imagesSettled(owner);
    await owner.screenshot({ path: path.join(artifacts, `profile-owner-${width}.png`), fullPage: true });

    await owner.goto('/maya?tab=links');
    await owner.getByRole('button', { name: 'Edit social links' }).click();
    await expect(owner.getByRole('form', { name: 'Edit social links' })).toBeVisible();
    await expect(owner.getByRole('form', { name: 'Edit social links' }).getByLabel('Twitter')).toBeFocused();
    await owner.evaluate(() => window.scrollTo(0, 0));
    await owner.screenshot({ path: path.join(artifacts, `profile-owner-links-${width}.png`), fullPage: true });

    await visitor.goto('/ava?view=media');
    await expect(mediaGrid(visitor).getByRole('listitem').first()).toBeVisible();
    await imagesSettled(visitor);
    await visitor.screenshot({ path: path.join(artifacts, `profile-media-${width}.png`), fullPage: true });
  }
  await Promise.all([visitor.context().close(), owner.context().close()]);
});
