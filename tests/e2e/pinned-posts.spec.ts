import { expect, test, type Browser, type Page } from '@playwright/test';
import { POST_UNLOCK_TEXTS } from '../../common/post-unlock-texts';
import { MAX_PINNED_POSTS } from '../../common/post-unlock';
import { e2eBaseURL, imagesSettled, newPageAs, toasts, trpcMutation } from './support/app';
import { publishPicture } from './support/publish';
import { withDatabase } from './support/retry-reset';
import { newCreator as makeNewCreator } from './support/new-creator';

/**
 * Issue 29 item 5 in a browser: a new creator (made here, so no other spec's profile moves) pins
 * their oldest post through the post menu and a visitor sees it lead the profile with 'Pinned';
 * a fourth pin is refused with the server's words.
 */

const SHOTS = '/work/shots/pin';

const newCreator = (browser: Browser) => makeNewCreator(browser, 'pinner', ['Pia', 'Pinner']);

const cardOf = (page: Page, postId: string) => page.locator(`article[data-post-id="${postId}"]`);

async function pinThroughMenu(page: Page, postId: string) {
  await cardOf(page, postId).getByRole('button', { name: 'Post options' }).click();
  await page.getByRole('menuitem', { name: POST_UNLOCK_TEXTS.pin }).click();
}

test('a creator pins an older post from its menu and it leads their profile, marked Pinned, for a visitor; a fourth pin is refused', async ({ browser }) => {
  test.setTimeout(120_000);
  const { page: creator, username } = await newCreator(browser);
  const posts: string[] = [];
  for (const [i, colour] of ['#3b6ea5', '#a53b6e', '#6ea53b', '#a5823b'].entries()) posts.push(await publishPicture(creator.request, `pin-${i}.png`, `Pin test post ${i + 1}`, colour));
  await expect(async () => {
    const { rows } = await withDatabase((c) => c.query("select count(*)::int as n from posts where id = any($1) and status = 'published'", [posts]));
    expect(rows[0]?.n).toBe(posts.length);
  }).toPass({ timeout: 60_000 });
  // in the order the worker published them (it processes several uploads at once: not always
  // the order they were uploaded in), as the profile lists them
  const { rows: published } = await withDatabase((c) => c.query<{ id: string }>('select id from posts where id = any($1) order by published_at, id', [posts]));
  const [oldest, second, third, newest] = published.map((r) => r.id) as [string, string, string, string];

  await creator.goto(`/${username}`);
  const articles = creator.locator('article[data-post-id]');
  await expect(articles.first()).toHaveAttribute('data-post-id', newest);
  await pinThroughMenu(creator, oldest);
  await expect(toasts(creator).getByText(POST_UNLOCK_TEXTS.pinDone)).toBeVisible();
  await expect(articles.first()).toHaveAttribute('data-post-id', oldest);

  const visitor = await newPageAs(browser, null);
  await visitor.goto(`/${username}`);
  const lead = visitor.locator('article[data-post-id]').first();
  await expect(lead).toHaveAttribute('data-post-id', oldest);
  await expect(lead.getByTestId('pinned-badge')).toHaveText(POST_UNLOCK_TEXTS.pinned);
  await expect(cardOf(visitor, newest).getByTestId('pinned-badge')).toHaveCount(0);
  for (const width of [1280, 375]) {
    await visitor.setViewportSize({ width, height: 800 });
    await lead.scrollIntoViewIfNeeded();
    await imagesSettled(visitor);
    await visitor.screenshot({ path: `${SHOTS}/profile-pinned-${width}.png` });
  }

  // the limit is the server's: two more pins, then the menu's fourth is refused in its words
  for (const postId of [second, third]) expect((await trpcMutation(creator.request, e2eBaseURL(), 'posts.pin', { postId, pinned: true })).status).toBe(200);
  await creator.reload();
  await cardOf(creator, newest).getByRole('button', { name: 'Post options' }).click();
  await expect(creator.getByRole('menuitem', { name: POST_UNLOCK_TEXTS.pin })).toBeVisible();
  await creator.screenshot({ path: `${SHOTS}/owner-menu-1280.png` });
  await creator.getByRole('menuitem', { name: POST_UNLOCK_TEXTS.pin }).click();
  await expect(toasts(creator).getByText(POST_UNLOCK_TEXTS.pinLimit(MAX_PINNED_POSTS))).toBeVisible();
  await expect(cardOf(creator, newest).getByTestId('pinned-badge')).toHaveCount(0);
  await Promise.all([creator.context().close(), visitor.context().close()]);
});
