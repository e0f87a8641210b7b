import { expect, type Locator, type Page, type Request, type Response } from '@playwright/test';

/**
 * Scrolls a paged list's sentinel into view, page after page, until the sentinel says the last
 * page is shown (`data-end`); returns how many items are shown then. Each step waits for a new
 * page or the end, never for a fixed time, so a list that stops paging early fails here.
 */
export async function scrollToEnd(page: Page, items: Locator, sentinelTestId: string): Promise<number> {
  const sentinel = page.getByTestId(sentinelTestId);
  await sentinel.waitFor({ state: 'attached' });
  const atEnd = async () => (await sentinel.getAttribute('data-end')) === 'true';
  // what the server answered while paging: a list that stops says whether a page failed or was never asked for
  const answers: string[] = [];
  const record = (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/trpc/')) answers.push(`${url.pathname.slice('/trpc/'.length)}${/"cursor":(?!null)/.test(url.searchParams.get('input') ?? '') ? ' (later page)' : ''} ${response.status()}`);
  };
  page.on('response', record);
  try {
    for (;;) {
      const before = await items.count();
      // counted again: the last page may have come between the count and the end mark
      if (await atEnd()) return await items.count();
      await sentinel.scrollIntoViewIfNeeded();
      await expect
        .poll(async () => (await atEnd()) || (await items.count()) > before, { message: `the ${sentinelTestId} list neither paged on nor ended` })
        .toBe(true);
    }
  } catch (error) {
    const where = await sentinel.evaluate((el) => `sentinel at ${Math.round(el.getBoundingClientRect().top)} px of a ${window.innerHeight} px window`).catch(() => 'sentinel gone');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${where}; the server's last answers: ${answers.slice(-8).join(', ') || 'none'}`, { cause: error });
  } finally {
    page.off('response', record);
  }
}

/**
 * How long a "no request was made" check watches. Each such check is paired with a control
 * showing the same watch does see the request when it is made, so the window is long enough.
 */
export const REQUEST_WATCH_MS = 1_500;

/** A tRPC call (possibly batched with others) of `procedure` that asks for a later page (a cursor is sent). */
export const isNextPageCall =
  (procedure: string) =>
  (request: Request): boolean => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/trpc/') || !url.pathname.slice('/trpc/'.length).split(',').includes(procedure)) return false;
    return /"cursor":(?!null)/.test(url.searchParams.get('input') ?? '');
  };

/** Whether the page sends a matching request within the watch; start it before the action that would cause one. */
export function requestWithin(page: Page, matches: (request: Request) => boolean, ms = REQUEST_WATCH_MS): Promise<boolean> {
  return page.waitForRequest(matches, { timeout: ms }).then(
    () => true,
    () => false,
  );
}

/**
 * Scrolls a paged list's sentinel into view until `target` is shown; each step waits for the list
 * to grow (not for a fixed time), so a target that never comes fails when paging stops.
 */
export async function scrollUntilShown(page: Page, target: Locator, items: Locator, sentinelTestId: string): Promise<void> {
  const sentinel = page.getByTestId(sentinelTestId);
  while ((await target.count()) === 0) {
    const before = await items.count();
    await sentinel.scrollIntoViewIfNeeded();
    await expect
      .poll(async () => (await target.count()) > 0 || (await items.count()) > before, { message: `the ${sentinelTestId} list stopped paging before the post came` })
      .toBe(true);
  }
}
