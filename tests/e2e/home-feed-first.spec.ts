import { expect, test, type Locator, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEED_TEXTS, LANDING } from '../../common/texts';
import { imagesSettled, newPageAs } from './support/app';
import { scrollToEnd } from './support/paging';

/** Issue 14 item 5: signed in, the feed comes first; visitors keep the landing page. */

const screenshots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts/screenshots');
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };

const feedList = (page: Page) => page.getByRole('list', { name: 'Posts' });
const featured = (page: Page) => page.getByRole('region', { name: LANDING.featuredHeading });
const refreshButton = (page: Page) => page.getByRole('button', { name: 'Refresh feed' });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not rendered');
  return b;
}

/** Pages the feed to its end (a page shorter than 5 ends paging); waits for each page, never a fixed time. */
async function scrollToFeedEnd(page: Page) {
  const posts = feedList(page).getByRole('article');
  await expect(posts.first()).toBeVisible();
  return scrollToEnd(page, posts, 'feed-sentinel');
}

/** The text boxes of every post on screen: paragraphs, headings and links inside the articles. */
async function visiblePostTextBoxes(page: Page): Promise<Box[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('ol[aria-label="Posts"] article :is(p, h2, h3, a, time, button)')]
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.bottom > 0 && r.top < window.innerHeight)
      .map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })),
  );
}

test('signed in on a phone: the first post is on screen at once, under a strip of featured creators that says it scrolls', async ({ browser }) => {
  const page = await newPageAs(browser, 'sam', { viewport: PHONE });
  const firstPost = feedList(page).getByRole('article').first();
  await expect(firstPost).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: LANDING.headline })).toHaveCount(0);

  // the post's top is within the first screen, no scrolling
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const post = await box(firstPost);
  expect(post.y).toBeLessThan(PHONE.height - 120);

  // the strip: one row that scrolls sideways, with a hint that it does
  const strip = featured(page);
  await expect(strip.getByRole('listitem').nth(2)).toBeVisible();
  await expect(strip.getByText(LANDING.featuredStripHint)).toBeVisible();
  const list = strip.getByRole('list');
  const { scrollWidth, clientWidth } = await list.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth).toBeGreaterThan(clientWidth);
  const items = strip.getByRole('listitem');
  expect((await box(items.nth(0))).y).toBe((await box(items.nth(1))).y);
  // aligned with the feed column
  expect(Math.abs((await box(list)).x - post.x)).toBeLessThanOrEqual(1);
  await page.context().close();
});

test('signed in at 1280 px: the strip sits in the feed column, above the feed', async ({ browser }) => {
  const page = await newPageAs(browser, 'ava');
  const firstPost = feedList(page).getByRole('article').first();
  await expect(firstPost).toBeVisible();
  const list = featured(page).getByRole('list');
  await expect(list.getByRole('listitem').first()).toBeVisible();
  const [strip, post] = [await box(list), await box(firstPost)];
  expect(Math.abs(strip.x - post.x)).toBeLessThanOrEqual(1);
  expect(strip.x + strip.width).toBeLessThanOrEqual(post.x + post.width + 1);
  expect(strip.y + strip.height).toBeLessThan(post.y);
  expect(post.y).toBeLessThan(DESKTOP.height);
  await page.context().close();
});

test('a visitor keeps the landing hero and the grid of featured creators', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: LANDING.headline })).toBeVisible();
  const items = featured(page).getByRole('listitem');
  await expect(items.nth(3)).toBeVisible();
  // a grid: three to a row at 1280 px, and the second row under the first
  expect((await box(items.nth(0))).y).toBe((await box(items.nth(2))).y);
  expect((await box(items.nth(3))).y).toBeGreaterThan((await box(items.nth(0))).y);
  await expect(featured(page).getByText(LANDING.featuredStripHint)).toHaveCount(0);
});

test("the end of the feed says You're all caught up; a visitor's locked feed does not", async ({ browser }) => {
  const page = await newPageAs(browser, 'sam');
  await expect(feedList(page).getByRole('article').first()).toBeVisible();
  await expect(page.getByText(FEED_TEXTS.caughtUp)).toHaveCount(0);
  await scrollToFeedEnd(page);
  await expect(page.getByText(FEED_TEXTS.caughtUp, { exact: true })).toBeVisible();
  await page.context().close();

  const visitor = await newPageAs(browser, null);
  await visitor.goto('/');
  await expect(visitor.getByTestId('locked-post').first()).toBeAttached();
  await expect(visitor.getByText(FEED_TEXTS.caughtUp)).toHaveCount(0);
  await visitor.context().close();
});

for (const size of [DESKTOP, PHONE]) {
  test(`the Refresh button never covers a post's text or the footer at ${size.width} px`, async ({ browser }) => {
    const page = await newPageAs(browser, 'sam', { viewport: size });
    await expect(feedList(page).getByRole('article').first()).toBeVisible();
    const total = await scrollToFeedEnd(page);
    expect(total).toBeGreaterThan(5);

    // from the top to the very bottom (footer in view at 1280 px), a screen at a time
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    let checked = 0;
    for (let y = 0; y <= height; y += Math.round(size.height * 0.6)) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const button = refreshButton(page);
      if (!(await button.isVisible())) continue;
      const buttonBox = await box(button);
      if (buttonBox.y + buttonBox.height < 0 || buttonBox.y > size.height) continue;
      const texts = await visiblePostTextBoxes(page);
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) expect(overlaps(buttonBox, text), `at scrollY ${y}: ${JSON.stringify({ buttonBox, text })}`).toBe(false);
      const footer = page.getByRole('contentinfo');
      if (await footer.isVisible()) expect(overlaps(buttonBox, await box(footer))).toBe(false);
      checked++;
    }
    // the button was on screen, over a screen of posts, at least once
    expect(checked).toBeGreaterThan(0);
    if (size.width === DESKTOP.width) {
      // at the end the footer is in view, and the button is still there
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect(page.getByRole('contentinfo')).toBeInViewport();
      await expect(refreshButton(page)).toBeInViewport();
      expect(overlaps(await box(refreshButton(page)), await box(page.getByRole('contentinfo')))).toBe(false);
    }
    await page.context().close();
  });
}

test('screenshots: the home page (visitor, fan, creator) and a profile (fan, creator) at 1280 and 375 px', async ({ browser }) => {
  test.setTimeout(120_000);
  const pages = { visitor: await newPageAs(browser, null), fan: await newPageAs(browser, 'sam'), creator: await newPageAs(browser, 'ava') };
  for (const size of [DESKTOP, PHONE]) {
    for (const [role, page] of Object.entries(pages)) {
      await page.setViewportSize(size);
      await page.goto('/');
      await expect(feedList(page).getByRole('article').first()).toBeVisible();
      await imagesSettled(page);
      await page.screenshot({ path: path.join(screenshots, `home-${role}-${size.width}.png`) });
    }
    for (const [role, page, username] of [
      ['fan', pages.fan, 'sam'],
      ['creator', pages.creator, 'ava'],
    ] as const) {
      await page.goto(`/${username}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await imagesSettled(page);
      await page.screenshot({ path: path.join(screenshots, `profile-${role}-${size.width}.png`) });
    }
  }
  for (const page of Object.values(pages)) await page.context().close();
});
