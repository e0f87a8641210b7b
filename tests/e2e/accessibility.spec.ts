import { expect, test, type Page } from '@playwright/test';
import { findPost, newPageAs } from './support/app';
import { seriousViolations, WCAG_21_AA } from './support/axe';

/**
 * The accessibility bar (issue 14 item 11): every route, signed out and signed in as a fan and a
 * creator, at 1280 and 375 px, has no serious or critical axe violation. One page per role; each
 * route is loaded once and scanned at both widths: all rules (WCAG A/AA and best practice) at
 * 1280 px, the WCAG rules again at 375 px (best-practice rules are about structure, which a width
 * does not change). A route that lands where one already scanned for this role (a gated screen
 * sends a visitor to /auth, /auth sends a signed-in user home) is not scanned twice, and the
 * screens that are the same for everyone but the shell (legal pages, not-found) are scanned as
 * the visitor: each role's shell is scanned on its other routes.
 */

// The four scans are independent and the longest file of the run: both workers share them.
test.describe.configure({ mode: 'parallel' });

type Role = { name: string; user: string | null };
const ROLES: Role[] = [
  { name: 'visitor', user: null },
  { name: 'fan', user: 'sam' },
  { name: 'creator', user: 'ava' },
];

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

/** The same for everyone but the shell. */
const VISITOR_ONLY = new Set(['/terms', '/privacy', '/csae-policy', '/post', '/no-such-user-here']);

/** Every screen of the route tree; a visitor sent from a gated one to /auth is scanned there too. */
function routes(postId: string): string[] {
  return [
    '/',
    '/explore',
    '/create',
    '/settings/media',
    '/auth?tab=signin',
    '/auth?tab=signup',
    '/auth/forgot-password',
    '/auth/reset-password?token=not-a-real-token',
    '/auth/confirm?token=not-a-real-token',
    '/terms',
    '/privacy',
    '/csae-policy',
    `/post/${postId}`,
    '/post',
    '/ava',
    '/ava/content',
    '/sam',
    '/no-such-user-here',
  ];
}

/** Skeletons gone and images decoded: the scan sees the screen a person reads, not its loading state. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('main')).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** One line per offending element: where, which rule, which element and why, so a failure reads at a glance. */
async function scan(page: Page, route: string, width: number, tags: string[]): Promise<string[]> {
  // axe runs in the page itself (support/axe.ts), put there once for both widths
  return (await seriousViolations(page, tags)).flatMap((v) =>
    v.nodes.map((n) => `${route} @${width}px ${v.impact} ${v.id}: ${n.target.join(' ')} | ${n.html.slice(0, 160)} | ${(n.failureSummary ?? '').split('\n').slice(1).join(' ').trim()}`),
  );
}

/**
 * The signed-in screens of messages, settings and subscriptions: the same for a fan and a creator
 * but for data (a visitor is sent to /auth, scanned above), so scanned as the fan, who has
 * conversations, subscriptions and payments in the demo; the tier manager is the creator's.
 */
const ACCOUNT_SCREENS: Array<{ user: string; route: string }> = [
  ...[
    '/messages',
    '/messages/ava',
    '/subscribe',
    '/ava/subscribe',
    '/settings',
    '/settings/personal-info',
    '/settings/content',
    '/settings/security',
    '/settings/account',
    '/settings/account/privacy',
    '/settings/account/notifications',
    '/settings/account/verification',
    '/settings/account/verification/get-verified',
    '/settings/account/invisible',
    '/settings/account/payment',
    '/settings/account/subscriptions',
    '/settings/account/management',
  ].map((route) => ({ user: 'sam', route })),
  { user: 'ava', route: '/create?tab=tiers' },
];

test('axe: no serious or critical violation on the messages, settings and subscription screens, at 1280 and 375 px', async ({ browser }) => {
  test.setTimeout(240_000);
  const findings: string[] = [];
  for (const user of [...new Set(ACCOUNT_SCREENS.map((s) => s.user))]) {
    const page = await newPageAs(browser, user);
    for (const { route } of ACCOUNT_SCREENS.filter((s) => s.user === user)) {
      await page.setViewportSize(WIDTHS[0]);
      await page.goto(route);
      await settled(page);
      // the screen itself, not a redirect to somewhere scanned already
      expect(new URL(page.url()).pathname, route).toBe(route.split('?')[0]);
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        await settled(page);
        findings.push(...(await scan(page, route, size.width, size === WIDTHS[0] ? [...WCAG_21_AA, 'best-practice'] : WCAG_21_AA)));
      }
    }
    await page.context().close();
  }
  expect(findings, findings.join('\n')).toEqual([]);
});

test('the scan sees a violation: a button with no name, added to a screen, is reported at both widths', async ({ browser }) => {
  const page = await newPageAs(browser, null);
  await page.goto('/explore');
  await settled(page);
  await page.evaluate(() => {
    const button = document.createElement('button');
    button.id = 'nameless';
    document.querySelector('main')!.append(button);
  });
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    expect(await scan(page, '/explore', size.width, WCAG_21_AA)).toEqual([expect.stringContaining('critical button-name: #nameless')]);
  }
  await page.context().close();
});

for (const role of ROLES) {
  test(`axe: no serious or critical violation on any route as ${role.name}, at 1280 and 375 px`, async ({ browser, request }) => {
    test.setTimeout(240_000);
    const post = await findPost(request, 'Golden hour study');
    const page = await newPageAs(browser, role.user);
    const findings: string[] = [];
    const landed = new Set<string>();
    const wanted = routes(post.id).filter((route) => role.user === null || !VISITOR_ONLY.has(route));
    for (const route of wanted) {
      await page.setViewportSize(WIDTHS[0]);
      await page.goto(route);
      await settled(page);
      const where = new URL(page.url());
      const screen = where.pathname + where.search;
      if (landed.has(screen)) continue;
      landed.add(screen);
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        await settled(page);
        findings.push(...(await scan(page, route, size.width, size === WIDTHS[0] ? [...WCAG_21_AA, 'best-practice'] : WCAG_21_AA)));
      }
    }
    // every route was reached: the ones that land elsewhere land on a screen scanned here
    expect(landed.size).toBeGreaterThanOrEqual(role.user === null ? 12 : 9);
    expect(findings, findings.join('\n')).toEqual([]);
    await page.context().close();
  });
}
