import { expect, test, type Locator, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MEDIA_VARIANTS } from '../../common/enums';
import { BOOKMARK_TEXTS, COMMENT_TEXTS, FEED_TEXTS, POST_TEXTS } from '../../common/texts';
import { appStarted, e2eBaseURL, findPost, imagesSettled, newPageAs, signIn, toasts, trpcMutation, trpcQuery, type ApiPost } from './support/app';
import { isNextPageCall, requestWithin, scrollToEnd, scrollUntilShown } from './support/paging';
import { publishPicture } from './support/publish';
import { playAndSeek, settledPlayback } from './support/video';

/**
 * The home feed, posts and their interactions (issue 3) against the seeded demo. Specs run two at
 * a time on one database, so each test uses posts no other test changes, and counts are checked
 * relative to what the page showed before:
 * - live likes / comments / bookmarks: 'Soldering station' (maya), plus the first feed post for the feed card;
 * - premium gating: 'PCB walkthrough, part 2' (maya, premium; lena does not subscribe to maya);
 * - the subscriber's video: 'Groove breakdown' (leo, premium; sam subscribes to leo);
 * - deletion: 'Taxi rank beat' (noah), which nothing else touches;
 * - the 'new posts' pill: two pictures noah (public) publishes and deletes again.
 */

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');

const LIVE_POST = 'Soldering station';
const PREMIUM_POST = 'PCB walkthrough, part 2';
const PREMIUM_VIDEO = 'Groove breakdown';
const DELETED_POST = 'Taxi rank beat';

const feedList = (page: Page) => page.getByRole('list', { name: 'Posts' });
const article = (scope: Page | Locator, title: string) => scope.getByRole('article', { name: title, exact: true });
const likeButton = (post: Locator) => post.getByRole('button', { name: 'Like', exact: true });
const bookmarkButton = (post: Locator) => post.getByRole('button', { name: 'Bookmark', exact: true });
const commentsButton = (post: Locator) => post.getByRole('button', { name: 'Comments', exact: true });
/** Scrolls so the element sits just under the fixed top bar. */
const scrollToTop = (element: Locator) =>
  element.evaluate((el) => window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY - 80, behavior: 'instant' }));
const countOf = async (button: Locator) => Number(await button.textContent());
const newPostsPill = (page: Page) => page.getByRole('button', { name: /^\d+ new posts?$/ });
const postIdsShown = (page: Page) => feedList(page).getByRole('article').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-post-id')));

test('a visitor sees 3 posts, then the sign-up prompt and locked posts; likes, bookmarks and comments need an account', async ({ page }) => {
  await page.goto('/');
  const list = feedList(page);
  // locked cards are hidden from assistive technology: three readable posts
  await expect(list.getByRole('article')).toHaveCount(3);
  const locked = page.getByTestId('locked-post');
  await expect(locked).toHaveCount(2);
  await expect(locked.first()).toContainText(POST_TEXTS.contentLocked.title);
  await expect(locked.first()).toContainText(POST_TEXTS.contentLocked.description);
  const prompt = page.getByRole('complementary', { name: POST_TEXTS.contentLocked.title });
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText(POST_TEXTS.contentLocked.description);
  // counted by the page's scripts, which a server-rendered page runs after its first paint
  await expect.poll(() => page.evaluate(() => localStorage.getItem('postsViewed'))).toBe('3');

  // paging stops at the locked state, even with the end of the list in view (the control after
  // signing in shows the same watch sees the next page asked for)
  const paged = requestWithin(page, isNextPageCall('posts.feed'));
  await page.getByTestId('feed-sentinel').scrollIntoViewIfNeeded();
  expect(await paged).toBe(false);
  await expect(locked).toHaveCount(2);

  const first = list.getByRole('article').first();
  await first.scrollIntoViewIfNeeded();
  // Like: nothing happens when signed out
  const like = likeButton(first);
  const likes = await countOf(like);
  // no like is sent (the control: signed in, the same watch sees it, in the live test below)
  const liked = requestWithin(page, (r) => r.url().includes('/trpc/posts.like'));
  await like.click();
  expect(await liked).toBe(false);
  await expect(like).toHaveText(String(likes));
  await expect(like).toHaveAttribute('aria-pressed', 'false');

  // Comment: 'Authentication required'
  await commentsButton(first).click();
  const box = first.getByLabel(COMMENT_TEXTS.label);
  await expect(box).toHaveAttribute('placeholder', COMMENT_TEXTS.placeholder);
  await box.fill('Hello from a visitor');
  await first.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(toasts(page).getByText(COMMENT_TEXTS.signInRequired.title, { exact: true })).toBeVisible();
  await expect(toasts(page).getByText(COMMENT_TEXTS.signInRequired.description, { exact: true })).toBeVisible();

  // Bookmark: 'Sign in required', then /auth
  await bookmarkButton(first).click();
  await expect(toasts(page).getByText(BOOKMARK_TEXTS.signInRequired.title, { exact: true })).toBeVisible();
  await expect(toasts(page).getByText(BOOKMARK_TEXTS.signInRequired.description, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\?tab=signin$/);

  // signing in resets the counter and shows every post
  await signIn(page, 'fan03@demo.test');
  expect(await page.evaluate(() => localStorage.getItem('postsViewed'))).toBe('0');
  await page.goto('/');
  await expect(feedList(page).getByRole('article')).toHaveCount(5);
  await expect(page.getByTestId('locked-post')).toHaveCount(0);
  // the control of the paging check above: signed in, the same watch sees the next page asked for
  const pagedSignedIn = requestWithin(page, isNextPageCall('posts.feed'));
  await page.getByTestId('feed-sentinel').scrollIntoViewIfNeeded();
  expect(await pagedSignedIn).toBe(true);
  await expect(feedList(page).getByRole('article')).toHaveCount(10);
});

test('a later page that keeps failing says so under the list with Try again, which loads it (the feed and a profile)', async ({ browser }) => {
  const page = await newPageAs(browser, 'lena');
  // every request for a later page fails (the query's own two retries included) until let through
  let failing = true;
  let refused = 0;
  await page.route('**/trpc/**', async (route) => {
    const request = route.request();
    if (failing && (isNextPageCall('posts.feed')(request) || isNextPageCall('profiles.posts')(request))) {
      refused += 1;
      return route.fulfill({ status: 500, contentType: 'application/json', body: '[]' });
    }
    return route.fallback();
  });
  for (const [at, list, sentinel] of [
    ['/', feedList(page), 'feed-sentinel'],
    ['/ava', page.getByRole('list', { name: 'Posts' }), 'profile-sentinel'],
  ] as const) {
    failing = true;
    refused = 0;
    if (at !== '/') {
      await page.goto(at);
      await appStarted(page);
    }
    const posts = list.getByRole('article');
    await expect(posts).toHaveCount(5);
    await page.getByTestId(sentinel).scrollIntoViewIfNeeded();
    // the spec's load error, under the posts shown
    const failed = list.locator('xpath=..').getByRole('alert').filter({ hasText: FEED_TEXTS.loadError });
    await expect(failed).toBeVisible({ timeout: 15_000 });
    expect(refused).toBe(3);
    await expect(posts).toHaveCount(5);
    if (at === '/') {
      for (const [width, height] of [[1280, 800], [375, 812]] as const) {
        await page.setViewportSize({ width, height });
        await failed.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(artifacts, 'screens', `feed-load-more-error-${width}.png`) });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    failing = false;
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => posts.count()).toBeGreaterThan(5);
    await expect(failed).toHaveCount(0);
  }
  await page.context().close();
});

test('a signed-in feed pages in 5 at a time as the end comes into view; Refresh spins for a second', async ({ browser }) => {
  const page = await newPageAs(browser, 'sam');
  await expect(page).toHaveURL(/\/$/);
  const posts = feedList(page).getByRole('article');
  await expect(posts).toHaveCount(5);

  await page.getByTestId('feed-sentinel').scrollIntoViewIfNeeded();
  await expect(posts).toHaveCount(10);
  // keep going to the end, which says so ('You're all caught up'): a page shorter than 5 ends
  // paging. Each step waits for a new page or the end, never a fixed time.
  const count = await scrollToEnd(page, posts, 'feed-sentinel');
  await expect(page.getByText(FEED_TEXTS.caughtUp, { exact: true })).toBeVisible();
  expect(count).toBeGreaterThan(10);
  const ids = await posts.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-post-id')));
  expect(new Set(ids).size).toBe(ids.length);

  // text over 100 characters is cut, with Show More / Show Less
  const longId = await feedList(page)
    .getByRole('article')
    .filter({ has: page.getByRole('button', { name: POST_TEXTS.showMore }) })
    .first()
    .getAttribute('data-post-id');
  const long = page.locator(`article[data-post-id="${longId}"]`);
  const toggle = long.getByRole('button', { name: POST_TEXTS.showMore });
  const cut = (await long.getByRole('paragraph').first().textContent()) ?? '';
  expect(cut).toContain('...');
  await toggle.click();
  await expect(long.getByRole('button', { name: POST_TEXTS.showLess })).toHaveAttribute('aria-expanded', 'true');
  const full = (await long.getByRole('paragraph').first().textContent()) ?? '';
  expect(full.length).toBeGreaterThan(cut.length);
  await long.getByRole('button', { name: POST_TEXTS.showLess }).click();
  await expect(long.getByRole('button', { name: POST_TEXTS.showMore })).toBeVisible();

  // the spinner's second is recorded by the page as it happens (a busy machine may not poll inside
  // it), from the click itself (its capture listener runs before the app's handler starts the second)
  const refresh = page.getByRole('button', { name: 'Refresh feed' });
  type Seen = Array<{ what: 'click' | 'busy' | 'idle'; at: number }>;
  await refresh.evaluate((button) => {
    const seen: Seen = [];
    (window as unknown as { refreshSeen: Seen }).refreshSeen = seen;
    window.addEventListener('click', (e) => e.target instanceof Node && button.contains(e.target) && seen.push({ what: 'click', at: performance.now() }), true);
    new MutationObserver(() => seen.push({ what: button.getAttribute('aria-busy') === 'true' ? 'busy' : 'idle', at: performance.now() })).observe(button, {
      attributes: true,
      attributeFilter: ['aria-busy'],
    });
  });
  const seen = () => page.evaluate(() => (window as unknown as { refreshSeen: Seen }).refreshSeen);
  expect(await seen()).toEqual([]);
  const refetched = page.waitForRequest((r) => r.url().includes('posts.feed'));
  await refresh.click();
  await refetched;
  await expect.poll(async () => (await seen()).map((s) => s.what)).toEqual(['click', 'busy', 'idle']);
  const [clicked, , idle] = await seen();
  expect(idle!.at - clicked!.at).toBeGreaterThanOrEqual(990);
  await expect(refresh).not.toHaveAttribute('aria-busy', 'true');

  // leaving / and coming back asks for the feed again (its cache is still fresh)
  await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  const again = page.waitForRequest((r) => r.url().includes('posts.feed'));
  await page.getByRole('banner').getByRole('link', { name: 'CreatorHub' }).click();
  await again;
  await expect(posts.first()).toBeVisible();
});

test('two users see each other’s likes, bookmarks and comments live', async ({ browser, request }) => {
  const livePost = await findPost(request, LIVE_POST);
  const [lena, fan] = await Promise.all([newPageAs(browser, 'lena'), newPageAs(browser, 'fan01@demo.test')]);
  await Promise.all([lena.goto(`/post/${livePost.id}`), fan.goto(`/post/${livePost.id}`)]);
  const atLena = article(lena, LIVE_POST);
  const atFan = article(fan, LIVE_POST);
  // both sockets are in the post's room
  await expect(atLena).toHaveAttribute('data-live', 'joined');
  await expect(atFan).toHaveAttribute('data-live', 'joined');

  // likes: lena toggles, the fan's count follows; then the other way round
  const likes = await countOf(likeButton(atFan));
  await expect(likeButton(atLena)).toHaveText(String(likes));
  const lenaLiked = (await likeButton(atLena).getAttribute('aria-pressed')) === 'true';
  // the request names lena's socket, which the server then leaves out of the event
  const likeRequest = lena.waitForRequest((r) => /\/trpc\/posts\.(un)?like\b/.test(r.url()));
  await likeButton(atLena).click();
  expect((await likeRequest).headers()['x-socket-id']).toMatch(/^[\w-]{20}$/);
  const afterLena = likes + (lenaLiked ? -1 : 1);
  await expect(likeButton(atLena)).toHaveText(String(afterLena));
  await expect(likeButton(atLena)).toHaveAttribute('aria-pressed', String(!lenaLiked));
  await expect(likeButton(atFan)).toHaveText(String(afterLena));
  await likeButton(atLena).click();
  await expect(likeButton(atFan)).toHaveText(String(likes));

  const fanLiked = (await likeButton(atFan).getAttribute('aria-pressed')) === 'true';
  await likeButton(atFan).click();
  await expect(likeButton(atLena)).toHaveText(String(likes + (fanLiked ? -1 : 1)));
  await likeButton(atFan).click();
  await expect(likeButton(atLena)).toHaveText(String(likes));

  // bookmarks: the fan adds and removes, lena's count follows
  const bookmarks = await countOf(bookmarkButton(atLena));
  await expect(bookmarkButton(atFan)).toHaveAttribute('aria-pressed', 'false');
  await bookmarkButton(atFan).click();
  await expect(toasts(fan).getByText(BOOKMARK_TEXTS.added, { exact: true })).toBeVisible();
  await expect(bookmarkButton(atFan)).toHaveAttribute('aria-pressed', 'true');
  await expect(bookmarkButton(atLena)).toHaveText(String(bookmarks + 1));
  await bookmarkButton(atFan).click();
  await expect(toasts(fan).getByText(BOOKMARK_TEXTS.removed, { exact: true })).toBeVisible();
  await expect(bookmarkButton(atLena)).toHaveText(String(bookmarks));

  // comments: the box refuses blank text; lena's comment reaches the fan as text, not HTML
  const comments = await countOf(commentsButton(atFan));
  const box = atLena.getByLabel(COMMENT_TEXTS.label);
  await expect(box).toHaveAttribute('placeholder', COMMENT_TEXTS.placeholder);
  const post = atLena.getByRole('button', { name: 'Post', exact: true });
  await box.fill('   ');
  await expect(post).toBeDisabled();
  const stamp = Date.now().toString(36);
  const text = `Live from Lena ${stamp} <b>not bold</b> <img src=x onerror="window.__pwned=1">`;
  await box.fill(text);
  await post.click();
  await expect(toasts(lena).getByText(COMMENT_TEXTS.added.title, { exact: true })).toBeVisible();
  await expect(toasts(lena).getByText(COMMENT_TEXTS.added.description, { exact: true })).toBeVisible();
  await expect(box).toHaveValue('');
  await expect(atFan.getByText(text, { exact: true })).toBeVisible();
  await expect(commentsButton(atFan)).toHaveText(String(comments + 1));
  await expect(commentsButton(atFan)).toHaveAttribute('title', comments + 1 === 1 ? COMMENT_TEXTS.tooltipOne : COMMENT_TEXTS.tooltipMany(comments + 1));
  expect(await fan.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(atFan.locator('b, img[src="x"]')).toHaveCount(0);
  // the timestamp is en-US short
  const lenaComment = atFan.getByRole('listitem').filter({ hasText: text }).first();
  await expect(lenaComment.locator('time').first()).toHaveText(/^\d{1,2}\/\d{1,2}\/\d{2}, \d{1,2}:\d{2}\s?[AP]M$/);

  // the fan replies (Reply, Cancel, Reply again); lena sees the reply nested under her comment
  await atFan.getByRole('button', { name: 'Reply to Lena Park' }).last().click();
  const replyBox = atFan.getByLabel(COMMENT_TEXTS.label);
  await expect(replyBox).toHaveAttribute('placeholder', COMMENT_TEXTS.replyPlaceholder);
  await atFan.getByRole('button', { name: 'Cancel' }).click();
  await expect(atFan.getByLabel(COMMENT_TEXTS.label)).toHaveAttribute('placeholder', COMMENT_TEXTS.placeholder);
  await atFan.getByRole('button', { name: 'Reply to Lena Park' }).last().click();
  const reply = `Reply from a fan ${stamp}`;
  await atFan.getByLabel(COMMENT_TEXTS.label).fill(reply);
  await atFan.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(toasts(fan).getByText(COMMENT_TEXTS.added.title, { exact: true })).toBeVisible();
  const replies = atLena.getByRole('list', { name: 'Replies to Lena Park' });
  await expect(replies.getByText(reply, { exact: true })).toBeVisible();
  await expect(commentsButton(atLena)).toHaveText(String(comments + 2));

  // a feed card moves live too: the fan's first feed post, liked by lena on its own page
  await fan.goto('/');
  const feedCard = feedList(fan).getByRole('article').filter({ hasNotText: DELETED_POST }).first();
  await expect(feedCard).toHaveAttribute('data-live', 'joined');
  const feedPostId = (await feedCard.getAttribute('data-post-id'))!;
  await lena.goto(`/post/${feedPostId}`);
  const lenaCard = lena.getByRole('article').first();
  await expect(lenaCard).toHaveAttribute('data-post-id', feedPostId);
  const cardLikes = await countOf(likeButton(feedCard));
  const lenaLikedCard = (await likeButton(lenaCard).getAttribute('aria-pressed')) === 'true';
  await likeButton(lenaCard).click();
  await expect(likeButton(feedCard)).toHaveText(String(cardLikes + (lenaLikedCard ? -1 : 1)));
  await likeButton(lenaCard).click();
  await expect(likeButton(feedCard)).toHaveText(String(cardLikes));

  await Promise.all([lena.context().close(), fan.context().close()]);
});

test('posts published while the feed is open wait under an “N new posts” pill that loads them; the creator’s own appear at once', async ({ browser }) => {
  const [viewer, noah] = await Promise.all([newPageAs(browser, 'fan04@demo.test'), newPageAs(browser, 'noah')]);
  await Promise.all([viewer.goto('/'), noah.goto('/')]);
  // both sockets are connected (a card's room is joined) before anything is published
  await expect(feedList(viewer).getByRole('article').first()).toHaveAttribute('data-live', 'joined');
  await expect(feedList(noah).getByRole('article').first()).toHaveAttribute('data-live', 'joined');
  const before = new Set(await postIdsShown(viewer));
  const feedRequests: string[] = [];
  viewer.on('request', (r) => {
    if (r.url().includes('posts.feed')) feedRequests.push(r.url());
  });

  const stamp = Date.now().toString(36);
  const first = await publishPicture(noah.request, `pill-one-${stamp}.png`, `Pill one ${stamp}`);
  const second = await publishPicture(noah.request, `pill-two-${stamp}.png`, `Pill two ${stamp}`);
  const cardAt = (page: Page, id: string) => page.locator(`article[data-post-id="${id}"]`);

  // the creator's own feed shows both at once, at the top, with nothing to press
  await expect(cardAt(noah, second)).toBeVisible({ timeout: 20_000 });
  await expect(cardAt(noah, first)).toBeVisible();

  // the other feed is told, not refetched: a pill counts them (others may publish meanwhile too)
  const pill = newPostsPill(viewer);
  await expect(pill).toHaveText(/^([2-9]|\d{2,}) new posts$/, { timeout: 20_000 });
  const announced = Number((await pill.textContent())!.split(' ')[0]);
  expect(await pill.textContent()).toBe(FEED_TEXTS.newPosts(announced));
  await expect(cardAt(viewer, first)).toHaveCount(0);
  await expect(cardAt(viewer, second)).toHaveCount(0);
  expect(feedRequests).toEqual([]);

  // pressed: the feed loads them at its top and the pill goes
  await pill.click();
  await expect(pill).toHaveCount(0);
  await expect(cardAt(viewer, second)).toBeVisible();
  await expect(cardAt(viewer, first)).toBeVisible();
  expect(feedRequests.length).toBeGreaterThan(0);
  const after = await postIdsShown(viewer);
  const loaded = after.filter((id) => !before.has(id));
  expect(loaded).toHaveLength(announced);
  expect(after.slice(0, announced)).toEqual(loaded);
  expect(loaded).toEqual(expect.arrayContaining([first, second]));

  // noah's profile is read by other specs: the posts go, and leave both feeds live (once the
  // loaded cards' rooms are joined: a deletion before that is for the card's next load to show)
  for (const id of [first, second]) await expect(cardAt(viewer, id)).toHaveAttribute('data-live', 'joined');
  for (const id of [first, second]) expect((await trpcMutation(noah.request, e2eBaseURL(), 'posts.delete', { postId: id })).status).toBe(200);
  await expect(cardAt(viewer, first)).toHaveCount(0);
  await expect(cardAt(viewer, second)).toHaveCount(0);
  await Promise.all([viewer.context().close(), noah.context().close()]);
});

test('a fan without a subscription sees the premium overlay, and the media route answers 403 for every variant but the preview', async ({ browser, request }) => {
  const page = await newPageAs(browser, 'lena');
  const { id } = await findPost(request, PREMIUM_POST);

  // what the API gives lena: text and counts, no media URL but the blurred preview
  const dto = await trpcQuery<ApiPost>(page.request, 'posts.byId', { id });
  expect(dto.isPremium).toBe(true);
  expect(dto.viewer.canViewMedia).toBe(false);
  expect(dto.media).toMatchObject({ url: null, thumbUrl: null, posterUrl: null, downloadUrl: null });
  expect(dto.media?.previewUrl).toBe(`/media/${id}/preview`);

  await page.goto(`/post/${id}`);
  const post = article(page, PREMIUM_POST);
  await expect(post.getByText(POST_TEXTS.premiumOverlay.title, { exact: true })).toBeVisible();
  await expect(post.getByRole('link', { name: POST_TEXTS.premiumOverlay.description })).toHaveAttribute('href', '/maya/subscribe');
  await expect(post.getByRole('button', { name: POST_TEXTS.saveMedia })).toHaveCount(0);
  // the page only ever asks for the preview
  const srcs = await post.locator('img, video, audio, iframe').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('src') ?? ''));
  const mediaSrcs = srcs.filter((s) => s.startsWith('/media/'));
  expect(mediaSrcs).toEqual([`/media/${id}/preview`]);

  // every URL of the post's media, asked directly with lena's cookie
  for (const variant of MEDIA_VARIANTS) {
    const url = `/media/${id}/${variant}`;
    const plain = await page.request.get(url);
    const ranged = await page.request.get(url, { headers: { Range: 'bytes=0-99' } });
    const download = await page.request.get(`${url}?download=1`);
    if (variant === 'preview') {
      expect(plain.status(), url).toBe(200);
      expect(plain.headers()['content-type']).toMatch(/^image\//);
      expect(ranged.status(), `${url} with Range`).toBe(206);
    } else {
      for (const [label, response] of [['plain', plain], ['Range', ranged], ['download', download]] as const) {
        expect(response.status(), `${url} (${label})`).toBe(403);
        expect(response.headers()['content-type'], `${url} (${label})`).toMatch(/application\/json/);
      }
      expect(await plain.json()).toMatchObject({ error: { code: 'PREMIUM_CONTENT' } });
    }
  }
  // and without any session
  expect((await request.get(`/media/${id}/original`)).status()).toBe(403);

  // the feed card of the same post shows the overlay too
  await page.goto('/');
  await scrollUntilShown(page, article(page, PREMIUM_POST), feedList(page).getByRole('article'), 'feed-sentinel');
  const card = article(page, PREMIUM_POST);
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByRole('link', { name: POST_TEXTS.premiumOverlay.description })).toBeVisible();
  await page.context().close();
});

test('a subscriber plays the premium video, seeks in it, and saves it', async ({ browser, request }) => {
  const page = await newPageAs(browser, 'sam');
  const { id } = await findPost(request, PREMIUM_VIDEO);
  await page.goto(`/post/${id}`);
  const post = article(page, PREMIUM_VIDEO);
  await expect(post.getByText(POST_TEXTS.premiumOverlay.title, { exact: true })).toHaveCount(0);
  const video = post.locator('video');
  await expect(video).toHaveAttribute('controls', '');

  // streamed from its ladder once the worker has made it (issue 49), the MP4 until then: either
  // way the fan sees it play and seek, and the bytes come from the post's own URLs
  const mode = await settledPlayback(video);
  const played = await playAndSeek(video);
  expect(played.error).toBeNull();
  expect(played.duration).toBeGreaterThan(3);
  expect(played.time).toBeGreaterThanOrEqual(2.4);
  expect(played.readyState).toBeGreaterThanOrEqual(1);
  if (mode === 'mp4') await expect(video).toHaveAttribute('src', `/media/${id}/original`);
  else await expect(video).toHaveAttribute('data-stream', `/hls/${id}/0/master.m3u8`);

  // the same file by Range, as the player asks for it
  const ranged = await page.request.get(`/media/${id}/original`, { headers: { Range: 'bytes=100-199' } });
  expect(ranged.status()).toBe(206);
  expect(ranged.headers()['content-range']).toMatch(/^bytes 100-199\/\d+$/);
  expect(ranged.headers()['cache-control']).toContain('private');

  // Save Media: the authorised download, named after the title
  const downloading = page.waitForEvent('download');
  await post.getByRole('button', { name: POST_TEXTS.saveMedia }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('groove-breakdown.mp4');
  await expect(toasts(page).getByText(POST_TEXTS.downloadStarted, { exact: true })).toBeVisible();
  await page.context().close();
});

test('the owner deletes a post: it leaves the other browser’s feed and its page says Post not found', async ({ browser, request, baseURL }) => {
  const target = await findPost(request, DELETED_POST);
  const [owner, fan, visitor] = await Promise.all([
    newPageAs(browser, 'noah'),
    newPageAs(browser, 'fan02@demo.test'),
    newPageAs(browser, null),
  ]);

  // someone else may not delete it
  const refused = await trpcMutation(fan.request, baseURL!, 'posts.delete', { postId: target.id });
  expect(refused.status).toBe(403);
  expect(refused.code).toBe('FORBIDDEN');
  expect(refused.message).toBe(POST_TEXTS.deleteNotAllowed.description);

  // the fan scrolls the feed to the post; a visitor has its page open
  await fan.goto('/');
  await scrollUntilShown(fan, article(fan, DELETED_POST), feedList(fan).getByRole('article'), 'feed-sentinel');
  const fanCard = article(fan, DELETED_POST);
  await expect(fanCard).toBeVisible();
  // the deletion reaches the sockets in the post's room only
  await expect(fanCard).toHaveAttribute('data-live', 'joined');
  await expect(fanCard.getByRole('button', { name: 'Post options' })).toHaveCount(0);
  await visitor.goto(`/post/${target.id}`);
  await expect(article(visitor, DELETED_POST)).toHaveAttribute('data-live', 'joined');

  await owner.goto(`/post/${target.id}`);
  const mine = article(owner, DELETED_POST);
  await mine.getByRole('button', { name: 'Post options' }).click();
  await expect(owner.getByRole('menuitem', { name: POST_TEXTS.saveMedia })).toBeVisible();
  await owner.getByRole('menuitem', { name: POST_TEXTS.deletePost }).click();
  // it asks first, naming the post
  const confirm = owner.getByRole('alertdialog', { name: POST_TEXTS.deleteConfirm.title });
  await expect(confirm).toHaveAccessibleDescription(POST_TEXTS.deleteConfirm.description(DELETED_POST));
  await confirm.getByRole('button', { name: POST_TEXTS.deleteConfirm.confirm }).click();
  await expect(toasts(owner).getByText(POST_TEXTS.deleted.title, { exact: true })).toBeVisible();
  await expect(toasts(owner).getByText(POST_TEXTS.deleted.description, { exact: true })).toBeVisible();
  await expect(owner).toHaveURL(/\/$/);

  await expect(fanCard).toHaveCount(0);
  await expect(visitor.getByRole('heading', { name: POST_TEXTS.notFound })).toBeVisible();
  // and for good
  await fan.goto(`/post/${target.id}`);
  await expect(fan.getByRole('heading', { name: POST_TEXTS.notFound })).toBeVisible();
  // asked again on a reset connection: a keep-alive socket the server closed as it was reused
  // (ECONNRESET, seen once in a full run) is the test's network, not the answer checked here
  const media = () => request.get(`/media/${target.id}/original`);
  expect((await media().catch(media)).status()).toBe(404);

  await Promise.all([owner.context().close(), fan.context().close(), visitor.context().close()]);
});

test('Share copies the post link, or hands it to the native share sheet', async ({ browser, baseURL }) => {
  const page = await newPageAs(browser, null, { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
  });
  await page.goto('/');
  await appStarted(page);
  const first = feedList(page).getByRole('article').first();
  const id = await first.getAttribute('data-post-id');
  await first.getByRole('button', { name: 'Share' }).click();
  await expect(toasts(page).getByText(POST_TEXTS.linkCopied, { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/post/${id}`);

  const native = await page.context().newPage();
  await native.addInitScript(() => {
    const w = window as { __shared?: unknown };
    Object.defineProperty(Navigator.prototype, 'share', {
      value: (data: unknown) => {
        w.__shared = data;
        return Promise.resolve();
      },
      configurable: true,
    });
    Object.defineProperty(Navigator.prototype, 'canShare', { value: () => true, configurable: true });
  });
  await native.goto(`/post/${id}`);
  await appStarted(native);
  await native.getByRole('article').first().getByRole('button', { name: 'Share' }).click();
  await expect.poll(() => native.evaluate(() => (window as { __shared?: unknown }).__shared)).toEqual({
    title: POST_TEXTS.shareTitle,
    url: `${baseURL}/post/${id}`,
  });
  await page.context().close();
});

test('/post/{id}: Back goes back, or home when there is nowhere to go; unknown and missing ids', async ({ page, request }) => {
  const { id } = await findPost(request, LIVE_POST);

  // opened directly: nothing of the app's to go back to, so home
  await page.goto(`/post/${id}`);
  await appStarted(page);
  await expect(article(page, LIVE_POST)).toBeVisible();
  await expect(article(page, LIVE_POST).getByLabel(COMMENT_TEXTS.label)).toBeVisible();
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  // from the feed: history back (the post stays ahead in the history); the first post with a
  // title link (posts uploaded meanwhile by create.spec have no title)
  const first = feedList(page)
    .getByRole('article')
    .filter({ has: page.getByRole('heading').getByRole('link') })
    .first();
  const firstId = await first.getAttribute('data-post-id');
  await first.getByRole('heading').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/post/${firstId}$`));
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goForward();
  await expect(page).toHaveURL(new RegExp(`/post/${firstId}$`));

  for (const unknown of ['00000000-0000-4000-8000-000000000000', 'not-a-post']) {
    await page.goto(`/post/${unknown}`);
    await expect(page.getByRole('heading', { name: POST_TEXTS.notFound })).toBeVisible();
  }
  for (const missing of ['/post', '/post/%20']) {
    await page.goto(missing);
    await expect(page.getByRole('heading', { name: POST_TEXTS.idRequired })).toBeVisible();
  }
});

test('screenshots: the feed, a post page and a locked premium card at 1280 and 375 px', async ({ browser, request }) => {
  const sam = await newPageAs(browser, 'sam');
  const lena = await newPageAs(browser, 'lena');
  const visitor = await newPageAs(browser, null);
  const golden = await findPost(request, 'Golden hour study');
  const premium = await findPost(request, PREMIUM_POST);

  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    for (const p of [sam, lena, visitor]) await p.setViewportSize({ width, height });

    await sam.goto('/');
    await expect(feedList(sam).getByRole('article').first()).toBeVisible();
    await scrollToTop(sam.getByRole('heading', { name: 'Your feed' }));
    await imagesSettled(sam);
    await sam.screenshot({ path: path.join(artifacts, `feed-${width}.png`) });
    if (width === 1280) {
      // two pages of posts: every media kind (image, video, audio, PDF, an unsupported file, premium)
      await sam.getByTestId('feed-sentinel').scrollIntoViewIfNeeded();
      await expect(feedList(sam).getByRole('article')).toHaveCount(10);
      await sam.evaluate(() => window.scrollTo(0, 0));
      await sam.screenshot({ path: path.join(artifacts, 'feed-full-1280.png'), fullPage: true });
    }

    await sam.goto(`/post/${golden.id}`);
    await expect(article(sam, 'Golden hour study').getByRole('list', { name: 'Comment threads' })).toBeVisible();
    await imagesSettled(sam);
    await sam.screenshot({ path: path.join(artifacts, `post-${width}.png`), fullPage: true });

    await lena.goto(`/post/${premium.id}`);
    await expect(article(lena, PREMIUM_POST).getByText(POST_TEXTS.premiumOverlay.title)).toBeVisible();
    await imagesSettled(lena);
    await lena.screenshot({ path: path.join(artifacts, `premium-locked-${width}.png`) });

    await visitor.goto('/');
    await expect(visitor.getByRole('complementary', { name: POST_TEXTS.contentLocked.title })).toBeVisible();
    await scrollToTop(feedList(visitor).getByRole('article').nth(2));
    await imagesSettled(visitor);
    await visitor.screenshot({ path: path.join(artifacts, `feed-visitor-locked-${width}.png`) });
  }
  await Promise.all([sam.context().close(), lena.context().close(), visitor.context().close()]);
});
