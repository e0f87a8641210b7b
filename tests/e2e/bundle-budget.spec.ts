import { expect, test, type Page } from '@playwright/test';
import { LANDING } from '../../common/texts';
import { e2eBaseURL, trpcMutation } from './support/app';
import { DEMO_PASSWORD } from './support/env';

/**
 * The landing page's JavaScript budget (issue 14, item 12): what a first visit to / transfers in
 * scripts (gzip, as the server sends them) stays under 200 kB. The figures for / and /explore
 * (transferred script bytes and first contentful paint) are printed for the closing note.
 */

/** 200 kB, counted as Vite and the browser's network panel count (1 kB = 1000 bytes). */
const BUDGET_BYTES = 200_000;

interface Load {
  scripts: { url: string; bytes: number }[];
  totalBytes: number;
  fcpMs: number | null;
}

/** Opens `path` in a page with an empty cache and sums the encoded (on the wire) bytes of every script it fetched. */
async function measure(page: Page, path: string, ready: (page: Page) => Promise<void>): Promise<Load> {
  const responses: Promise<{ url: string; bytes: number; encoding: string | null }>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    responses.push(
      response.finished().then(async () => ({
        url: new URL(response.url()).pathname,
        bytes: (await response.request().sizes()).responseBodySize,
        encoding: (await response.allHeaders())['content-encoding'] ?? null,
      })),
    );
  });
  await page.goto(path);
  await ready(page);
  // route chunks and whatever the page asks for once it has rendered
  await page.waitForLoadState('networkidle');
  const scripts = await Promise.all(responses);
  // the budget is about what travels: scripts come compressed (below 1 kB the server's compression sends them as they are)
  for (const s of scripts) if (s.bytes > 1024) expect(s.encoding, s.url).toBe('gzip');
  const fcpMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
  return {
    scripts: scripts.map(({ url, bytes }) => ({ url, bytes })),
    totalBytes: scripts.reduce((sum, s) => sum + s.bytes, 0),
    fcpMs,
  };
}

function report(label: string, load: Load) {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  const lines = load.scripts.sort((a, b) => b.bytes - a.bytes).map((s) => `    ${kb(s.bytes).padStart(9)}  ${s.url}`);
  console.log(
    `[bundle] ${label}: ${kb(load.totalBytes)} (${load.totalBytes} bytes) of JavaScript (gzip) in ${load.scripts.length} files; ` +
      `first contentful paint ${load.fcpMs === null ? 'n/a' : `${Math.round(load.fcpMs)} ms`}\n${lines.join('\n')}`,
  );
}

test('the landing page loads under 200 kB of JavaScript (gzip); / and /explore figures', async ({ browser }) => {
  // a fresh context each: nothing cached from another page. The budget is in gzip (Chromium would
  // take brotli, a little smaller), so the browser asks for gzip only.
  const options = { baseURL: e2eBaseURL(), extraHTTPHeaders: { 'accept-encoding': 'gzip' } };
  const visitorContext = await browser.newContext(options);
  const landing = await measure(await visitorContext.newPage(), '/', async (page) => {
    await expect(page.getByRole('heading', { level: 1, name: LANDING.headline })).toBeVisible();
  });
  report('/ (visitor)', landing);
  await visitorContext.close();

  // signed in through the API, so the browser has fetched nothing before /explore
  const fanContext = await browser.newContext(options);
  const signedIn = await trpcMutation(fanContext.request, e2eBaseURL(), 'auth.signIn', { email: 'fan33@demo.test', password: DEMO_PASSWORD });
  expect(signedIn.status).toBe(200);
  const explore = await measure(await fanContext.newPage(), '/explore', async (page) => {
    await expect(page).toHaveURL(/\/explore$/);
    await expect(page.getByRole('searchbox', { name: 'Search creators and posts' })).toBeVisible();
  });
  report('/explore (signed in)', explore);
  await fanContext.close();

  // the measurement itself saw the app's scripts (an empty list would pass any budget)
  expect(landing.scripts.length).toBeGreaterThan(0);
  expect(landing.scripts.some((s) => s.url.startsWith('/assets/') && s.url.endsWith('.js'))).toBe(true);
  expect(landing.totalBytes).toBeLessThan(BUDGET_BYTES);
});
