import { expect, type APIRequestContext, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { AUTH_TEXTS } from '../../../common/texts';
import { DEMO_PASSWORD } from './env';

/** The app under test (playwright.config.ts picks the port before anything runs). */
export function e2eBaseURL(): string {
  const port = process.env.E2E_PORT;
  if (!port) throw new Error('E2E_PORT is not set: run through tests/e2e/playwright.config.ts');
  return `http://localhost:${port}`;
}

/** Sonner's live region: every toast is announced from here. */
export const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

/**
 * Every toast the page shows from now on, recorded by the page as it appears (title and
 * description run together): a 3 s toast can come and go before a poll runs on a busy machine.
 * Start it before the action; a navigation ends it.
 */
export async function watchToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { toastsSeen: Set<string> }).toastsSeen = seen;
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('[data-sonner-toast]')) seen.add(toast.textContent ?? '');
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => [...(window as unknown as { toastsSeen: Set<string> }).toastsSeen]);
}

/** A demo account's e-mail: `lena` → lena@demo.test; an address is used as it is (fan01@demo.test). */
export const demoEmail = (user: string) => (user.includes('@') ? user : `${user}@demo.test`);

/** Signs in through the form, as a person would, and waits for the welcome toast. */
export async function signIn(page: Page, user: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/auth?tab=signin');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Email').fill(demoEmail(user));
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toasts(page).getByText(AUTH_TEXTS.signInSucceeded.title, { exact: true })).toBeVisible();
}

/**
 * A page in a browser context of its own (its own cookies and session), signed in as `user`, or a
 * visitor's when null. A signed-in page opens on `at` (/ unless told; a test that starts
 * elsewhere opens there at once rather than loading the feed on its way); a visitor's opens on
 * nothing. The sign-in goes through the API (the form has its own tests in auth.spec.ts): a third
 * of the time, which every spec that needs a user pays.
 */
export async function newPageAs(browser: Browser, user: string | null, options: BrowserContextOptions & { at?: string } = {}): Promise<Page> {
  const { at = '/', ...contextOptions } = options;
  const context = await browser.newContext({ baseURL: e2eBaseURL(), viewport: { width: 1280, height: 800 }, ...contextOptions });
  if (user) {
    const result = await trpcMutation(context.request, e2eBaseURL(), 'auth.signIn', { email: demoEmail(user), password: DEMO_PASSWORD });
    if (result.status !== 200) throw new Error(`signing in ${user} answered ${result.status}: ${result.message}`);
  }
  const page = await context.newPage();
  if (user) {
    await page.goto(at);
    await appStarted(page);
  }
  return page;
}

/**
 * Waits until the app has taken over the page. A server-rendered page (a visitor's public pages,
 * a signed-in home feed) shows its buttons and fields before its scripts have loaded, and a press
 * then does nothing. React marks #root as soon as it is given the page, but hydrates it in slices
 * after that: text typed into a field it has not adopted yet stays in the field without reaching
 * its handler (1 in 10 runs of the profile search test), so this waits for the hydration to be
 * committed (the root's state no longer dehydrated; a client-rendered root never is).
 */
export async function appStarted(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.getElementById('root') as (HTMLElement & Record<string, unknown>) | null;
    const key = root && Object.keys(root).find((k) => k.startsWith('__reactContainer'));
    if (!root || !key) return false;
    const fiber = root[key] as { stateNode?: { current?: { memoizedState?: { isDehydrated?: boolean } } } };
    return fiber.stateNode?.current?.memoizedState?.isDehydrated === false;
  });
}

// ---- tRPC over HTTP (superjson envelopes), with the cookies of the request context -------------

interface TrpcEnvelope<T> {
  result?: { data?: { json?: T } };
  error?: { json?: { message: string; data?: { code?: string; httpStatus?: number } } };
}

/** A query procedure as the signed-in user of `request` (or a visitor). Dates arrive as ISO strings. */
export async function trpcQuery<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  const response = await request.get(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  const body = (await response.json()) as TrpcEnvelope<T>;
  if (!response.ok() || body.result?.data?.json === undefined) {
    throw new Error(`${path} answered ${response.status()}: ${body.error?.json?.message ?? 'no data'}`);
  }
  return body.result.data.json;
}

/** A mutation; resolves with the HTTP status and the error (if any), for permission checks. */
export async function trpcMutation(
  request: APIRequestContext,
  baseURL: string,
  path: string,
  input: unknown,
): Promise<{ status: number; code: string | null; message: string | null }> {
  // Mutations refuse a missing or foreign Origin (CSRF); a browser sends this one.
  const response = await request.post(`/trpc/${path}`, { data: { json: input }, headers: { origin: baseURL } });
  const body = (await response.json()) as TrpcEnvelope<unknown>;
  return {
    status: response.status(),
    code: body.error?.json?.data?.code ?? null,
    message: body.error?.json?.message ?? null,
  };
}

/** What the specs read of a post (PostDto over JSON). */
export interface ApiPost {
  id: string;
  title: string | null;
  isPremium: boolean;
  creator: { username: string };
  counts: { likes: number; comments: number; bookmarks: number };
  viewer: { liked: boolean; bookmarked: boolean; isOwner: boolean; canViewMedia: boolean };
  media: {
    contentType: string;
    url: string | null;
    thumbUrl: string | null;
    posterUrl: string | null;
    downloadUrl: string | null;
    previewUrl: string | null;
  } | null;
}

/** Walks the feed (as the user of `request`) to the post with this title. */
export async function findPost(request: APIRequestContext, title: string): Promise<ApiPost> {
  let cursor: unknown = null;
  for (let page = 0; page < 50; page++) {
    const result = await trpcQuery<{ items: ApiPost[]; nextCursor: unknown }>(request, 'posts.feed', { limit: 20, cursor });
    const found = result.items.find((p) => p.title === title);
    if (found) return found;
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  throw new Error(`no post titled "${title}" in the feed`);
}

/** Waits until every <img> within the viewport has loaded and been decoded, for screenshots. */
export async function imagesSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      [...document.images]
        .filter((img) => {
          const r = img.getBoundingClientRect();
          return r.bottom > 0 && r.top < window.innerHeight && r.width > 0;
        })
        .every((img) => img.complete && img.naturalWidth > 0),
    undefined,
    { timeout: 10_000 },
  );
  await page.evaluate(async () => {
    await Promise.all([...document.images].map((img) => (img.complete ? img.decode().catch(() => undefined) : undefined)));
    // one more frame, so the decoded pictures are painted
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/** A query procedure's raw answer (status and body text), for checks that nothing leaks in a refusal. */
export async function trpcQueryRaw(request: APIRequestContext, path: string, input: unknown): Promise<{ status: number; text: string }> {
  const response = await request.get(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  return { status: response.status(), text: await response.text() };
}
