import { expect, test, type Locator, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BILLING_TEXTS, LINK_TEXTS, POST_TEXTS, PROFILE_TEXTS } from '../../common/texts';
import { CREATORS } from '../../scripts/seed/cast';
import { e2eBaseURL, findPost, imagesSettled, newPageAs, toasts, trpcMutation, trpcQuery, type ApiPost } from './support/app';
import { DEMO_PASSWORD } from './support/env';
import { withDatabase } from './support/retry-reset';
import { scrollUntilShown } from './support/paging';
import { seriousViolations, violationLines, WCAG_A_AA } from './support/axe';

/**
 * Issue 11's journey in a browser. Specs run two at a time on one database, so this file changes
 * only what no other spec reads afterwards: maya gains a tier and fan05 (subscribed to neither
 * maya nor her tiers in the seed) subscribes to it; noah upgrades to Premium. landing.spec reads
 * maya's subscriber count, but it runs before this file in the queue.
 */

const screens = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts/screens');
const TIER = 'Weekly Pass';
const PREMIUM_POST = 'PCB walkthrough, part 2';
const FAN = 'fan05@demo.test';

/** A date `days` from now as the billing screens write it ('Dec 3, 2026'). */
const calendarDate = (days: number) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(Date.now() + days * 24 * 60 * 60_000));

const postsOf = (page: Page) => page.getByRole('list', { name: 'Posts', exact: true }).getByRole('article');
const article = (scope: Page | Locator, title: string) => scope.getByRole('article', { name: title, exact: true });
const toast = (page: Page, text: string) => toasts(page).getByText(text, { exact: true });

/** A full-page picture at 1280 px and one at 375 px (a phone), for the screens' review; a dialog's, of what the viewport shows. */
async function shoot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await imagesSettled(page);
    await page.screenshot({ path: path.join(screens, `${name}-${width}.png`), fullPage });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The open dialog's serious or critical axe violations (WCAG A and AA), one line each. */
async function dialogViolations(page: Page): Promise<string[]> {
  return violationLines(await seriousViolations(page, WCAG_A_AA, '[role="alertdialog"]'));
}

/** What maya's published premium posts are, by kind, as the seed made them. */
function mayaUnlocks(): string {
  const premium = CREATORS.find((c) => c.username === 'maya')!.posts.filter((p) => p.premium && !p.draft);
  const images = premium.filter((p) => p.kind === 'image').length;
  const documents = premium.filter((p) => p.kind === 'pdf' || p.kind === 'document').length;
  return `${premium.length} premium posts by Maya Chen: ${images} image${images === 1 ? '' : 's'} and ${documents} document${documents === 1 ? '' : 's'}.`;
}

test('a creator adds a discounted weekly tier; a fan confirms the amounts (nothing charged before Pay), double-clicks Pay and pays once, manages it from the Subscribed pill, an open feed unlocks, and cancelling keeps access', async ({ browser }) => {
  // one journey over two users and five screens (with their screenshots): more than the default 45 s on a busy machine
  test.setTimeout(120_000);
  const [maya, fan] = await Promise.all([newPageAs(browser, 'maya'), newPageAs(browser, FAN)]);

  // --- the creator's tier manager: add a weekly tier at R50 with 20% off, through the form
  await maya.goto('/create?tab=tiers');
  await maya.getByRole('button', { name: 'Add Tier' }).click();
  const form = maya.getByRole('form', { name: 'New subscription tier' });
  await expect(form.getByLabel('Name')).toBeFocused();
  await form.getByLabel('Name').fill(TIER);
  await form.getByLabel('Description').fill('Every tutorial the week it comes out.');
  await form.getByLabel('Price (R)').fill('50');
  await form.getByLabel('Discount (%)').fill('20');
  await form.getByText('Weekly', { exact: true }).click();
  await expect(form.getByText('Fans see:')).toContainText('R40.00 / week (20% off)');
  await form.getByRole('button', { name: 'Save Tier' }).click();
  await expect(toast(maya, BILLING_TEXTS.tierAdded)).toBeVisible();
  // back to the list, by price ascending: Reader R49, the new R50 tier, Builder R490
  const tiers = maya.getByRole('list', { name: 'Your subscription tiers' });
  await expect(tiers.getByRole('listitem')).toHaveCount(3);
  await expect(tiers.getByRole('listitem').nth(1)).toHaveAccessibleName(TIER);
  const row = tiers.getByRole('listitem', { name: TIER });
  await expect(row.locator('s')).toHaveText('R50.00');
  await expect(row.getByTestId('tier-price')).toContainText('R40.00');
  await expect(row.getByTestId('tier-subscribers')).toHaveText('0 active subscribers');
  await shoot(maya, 'tier-manager');

  // --- the fan's feed is open in one tab: maya's premium post is locked there
  await fan.goto('/');
  const feed = fan.getByRole('list', { name: 'Posts' });
  await scrollUntilShown(fan, article(fan, PREMIUM_POST), feed.getByRole('article'), 'feed-sentinel');
  const locked = article(fan, PREMIUM_POST);
  await locked.scrollIntoViewIfNeeded();
  await expect(locked.getByText(POST_TEXTS.premiumOverlay.title, { exact: true })).toBeVisible();
  await expect(locked.getByRole('link', { name: POST_TEXTS.premiumOverlay.description })).toHaveAttribute('href', '/maya/subscribe');

  // --- a second tab: the subscribe page, with the honest paywall and the discounted price
  const shop = await fan.context().newPage();
  await shop.goto('/maya/subscribe');
  await expect(shop.getByRole('heading', { level: 1, name: 'Subscribe to Maya Chen' })).toBeVisible();
  await expect(shop.getByTestId('unlock-summary')).toHaveText(mayaUnlocks());
  await expect(shop.getByTestId('provider-note')).toHaveText(BILLING_TEXTS.builtinProviderLabel);
  const card = article(shop, TIER);
  await expect(card.locator('s')).toHaveText('R50.00');
  await expect(card.getByText('R40.00', { exact: true })).toBeVisible();
  await expect(card.getByText('(20% off)', { exact: true })).toBeVisible();
  await shoot(shop, 'subscribe-page');

  const calls: string[] = [];
  shop.on('request', (request) => {
    if (request.url().includes('subscriptions.subscribe?') || request.url().endsWith('subscriptions.subscribe')) calls.push(request.postData() ?? '');
  });
  const tierCharges = async () =>
    (await trpcQuery<{ description: string; amount: string; status: string }[]>(fan.request, 'payments.history', undefined)).filter((p) => p.description.includes(TIER));

  // --- Subscribe asks first: what is charged now, each renewal, the first renewal date, the terms
  await card.getByRole('button', { name: 'Subscribe' }).click();
  const confirm = shop.getByRole('alertdialog', { name: 'Subscribe to Maya Chen' });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByTestId('charged-now')).toHaveText('R40.00');
  await expect(confirm.getByTestId('renewal-amount')).toHaveText('R40.00 every week');
  await expect(confirm.getByTestId('first-renewal')).toHaveText(calendarDate(7));
  await expect(confirm).toContainText(BILLING_TEXTS.cancelAnyTime);
  await expect(confirm).toContainText(BILLING_TEXTS.nonRefundable);
  await expect(confirm.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms#subscriptions');
  await expect(confirm.getByTestId('provider-note')).toHaveText(BILLING_TEXTS.builtinProviderLabel);
  // focus starts on Cancel, so Enter alone never pays
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  expect(await dialogViolations(shop)).toEqual([]);
  await shoot(shop, 'purchase-dialog', { fullPage: false });
  // nothing is charged while the fan reads, nor when they close it with Escape
  await shop.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  expect(calls).toEqual([]);
  expect(await tierCharges()).toEqual([]);

  // --- confirmed: a double click on Pay charges once
  await card.getByRole('button', { name: 'Subscribe' }).click();
  await confirm.getByRole('button', { name: 'Pay R40.00' }).dblclick();
  await expect(toast(shop, BILLING_TEXTS.subscribed)).toBeVisible();
  await expect(shop).toHaveURL(/\/maya$/);
  await expect(shop.getByTestId('subscribed')).toBeVisible();
  // however many requests the double click made, they carried one idempotency key and the confirmed amount
  const keys = new Set(calls.map((body) => /"idempotencyKey":"([^"]+)"/.exec(body)?.[1]));
  expect(keys.size).toBe(1);
  expect(calls.every((body) => body.includes('"confirmedAmount":"40.00"'))).toBe(true);

  // --- the Subscribed pill opens the subscription: tier, price, next renewal; Cancel asks first, Resume undoes it
  await shop.getByTestId('subscribed').click();
  const manage = shop.getByRole('alertdialog', { name: 'Your subscription to Maya Chen' });
  await expect(manage.getByTestId('subscription-tier')).toHaveText(TIER);
  await expect(manage.getByTestId('subscription-price')).toHaveText('R40.00 / week');
  await expect(manage.getByTestId('subscription-date')).toHaveText(calendarDate(7));
  await expect(manage.getByTestId('subscription-status')).toHaveText(`Renews on ${calendarDate(7)}`);
  expect(await dialogViolations(shop)).toEqual([]);
  await shoot(shop, 'subscription-dialog', { fullPage: false });
  await manage.getByRole('button', { name: 'Cancel subscription' }).click();
  const ask = shop.getByRole('alertdialog', { name: 'Cancel your subscription to Maya Chen?' });
  await ask.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(toasts(shop).getByText(/^Subscription cancelled\. You keep access until /)).toBeVisible();
  await expect(manage.getByTestId('subscription-status')).toHaveText(`Ends on ${calendarDate(7)}`);
  await manage.getByRole('button', { name: 'Resume' }).click();
  await expect(toast(shop, BILLING_TEXTS.resumed)).toBeVisible();
  await expect(manage.getByTestId('subscription-status')).toHaveText(`Renews on ${calendarDate(7)}`);
  await shop.keyboard.press('Escape');
  await expect(manage).toHaveCount(0);
  await expect(shop.getByTestId('subscribed')).toBeFocused();

  // --- the feed tab, never reloaded, unlocks the premium post
  await expect(locked.getByText(POST_TEXTS.premiumOverlay.title, { exact: true })).toHaveCount(0);
  await expect(locked.getByRole('link', { name: POST_TEXTS.premiumOverlay.description })).toHaveCount(0);
  const { id } = await findPost(fan.request, PREMIUM_POST);
  expect((await fan.request.get(`/media/${id}/original`)).status()).toBe(200);

  // --- exactly one subscription and one payment
  const mine = await trpcQuery<{ id: string; creator: { username: string } | null; status: string }[]>(fan.request, 'subscriptions.mine', undefined);
  expect(mine.filter((s) => s.creator?.username === 'maya')).toHaveLength(1);
  expect(await tierCharges()).toEqual([expect.objectContaining({ amount: '40.00', status: 'succeeded' })]);

  // --- the payment screen's Payment History shows it
  await shop.goto('/settings/account/payment');
  await expect(shop.getByText(BILLING_TEXTS.noPaymentMethods, { exact: true })).toBeVisible();
  const payments = shop.getByRole('list', { name: 'Payments' });
  const charge = payments.getByRole('listitem').filter({ hasText: TIER });
  await expect(charge).toHaveCount(1);
  await expect(charge).toContainText('R40.00');
  await shoot(shop, 'payment-history');

  // --- cancel: access stays until the period end, which the list shows
  await shop.goto('/settings/account/subscriptions');
  const subscription = shop.getByRole('list', { name: 'Your subscriptions' }).getByRole('listitem', { name: `Maya Chen, ${TIER}` });
  await expect(subscription.getByTestId('subscription-status')).toHaveText(/^Renews on /);
  await subscription.getByRole('button', { name: 'Cancel' }).click();
  const dialog = shop.getByRole('alertdialog');
  await expect(dialog).toContainText('You keep access until');
  await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(toasts(shop).getByText(/^Subscription cancelled\. You keep access until /)).toBeVisible();
  await expect(subscription.getByTestId('subscription-status')).toHaveText(/^Ends on /);
  await expect(subscription.getByRole('button', { name: 'Resume' })).toBeVisible();
  await shoot(shop, 'my-subscriptions');
  const after = await trpcQuery<ApiPost>(fan.request, 'posts.byId', { id });
  expect(after.viewer.canViewMedia).toBe(true);
  expect((await fan.request.get(`/media/${id}/original`)).status()).toBe(200);

  // the creator sees the new subscriber on the tier
  await maya.reload();
  await expect(maya.getByRole('list', { name: 'Your subscription tiers' }).getByRole('listitem', { name: TIER }).getByTestId('tier-subscribers')).toHaveText(
    '1 active subscriber',
  );
  await Promise.all([maya.context().close(), fan.context().close()]);
});

test('a creator upgrades to Premium after confirming it: the upgrade card goes, the verified badge comes and links are unlimited', async ({ browser }) => {
  const noah = await newPageAs(browser, 'noah', { at: '/noah' });
  const badge = noah.getByRole('region', { name: 'Noah Dlamini' }).getByRole('img', { name: 'Verified' });
  await expect(noah.getByRole('heading', { level: 1, name: 'Noah Dlamini' })).toBeVisible();
  await expect(badge).toHaveCount(0);
  const upgradeCard = noah.getByRole('complementary', { name: 'Upgrade to Premium' });
  await upgradeCard.getByRole('link', { name: 'Upgrade to Premium' }).click();
  await expect(noah).toHaveURL(/\/subscribe$/);
  await expect(noah.getByTestId('premium-price')).toHaveText(/R150\.00\s*\/ month/);
  await shoot(noah, 'premium-upgrade');

  await noah.getByRole('link', { name: 'Continue to payment' }).click();
  await expect(noah).toHaveURL(/\/settings\/account\/payment\?tier=/);
  await expect(noah.getByRole('heading', { name: 'Premium', exact: true })).toBeVisible();
  await expect(noah.getByTestId('plan-price')).toHaveText(/R150\.00\s*\/ month/);
  await expect(noah.getByTestId('provider-note')).toHaveText(BILLING_TEXTS.builtinProviderLabel);
  await expect(noah.getByText(BILLING_TEXTS.noPaymentHistory, { exact: true })).toBeVisible();
  await shoot(noah, 'payment-screen');

  await noah.getByRole('button', { name: 'Subscribe Now' }).click();
  const confirm = noah.getByRole('alertdialog', { name: 'Subscribe to Premium' });
  await expect(confirm.getByTestId('charged-now')).toHaveText('R150.00');
  await expect(confirm.getByTestId('renewal-amount')).toHaveText('R150.00 every 30 days');
  await expect(confirm.getByTestId('first-renewal')).toHaveText(calendarDate(30));
  await expect(noah.getByText(BILLING_TEXTS.noPaymentHistory, { exact: true })).toBeVisible();
  await confirm.getByRole('button', { name: 'Pay R150.00' }).click();
  await expect(toast(noah, BILLING_TEXTS.premiumSubscribed)).toBeVisible();
  await expect(noah).toHaveURL(/\/noah$/);
  await expect(noah.getByRole('heading', { level: 1, name: 'Noah Dlamini' })).toBeVisible();
  await expect(upgradeCard).toHaveCount(0);
  // the card's promise: the verified badge, on the profile and on his posts
  await expect(badge).toBeVisible();
  await expect(postsOf(noah).first().getByRole('img', { name: 'Verified' })).toBeVisible();
  const me = await trpcQuery<{ isPremium: boolean }>(noah.request, 'auth.me', undefined);
  expect(me.isPremium).toBe(true);

  // the free limit no longer applies: a sixth link is accepted, and the hint about the limit is gone
  await noah.getByRole('tab', { name: PROFILE_TEXTS.tabLinks }).click();
  await expect(noah.getByText(/Up to \d+ links/)).toHaveCount(0);
  const added: string[] = [];
  for (let i = 1; i <= 6; i++) {
    const url = `https://noah.example/premium-${i}`;
    const result = await trpcMutation(noah.request, e2eBaseURL(), 'profiles.addLink', { title: `Link ${i}`, url });
    expect(result.message, `link ${i}`).not.toBe(LINK_TEXTS.limitReached(5));
    expect(result.status, `link ${i}`).toBe(200);
    added.push(url);
  }
  // noah's links are read elsewhere: they go again
  for (const url of added) expect((await trpcMutation(noah.request, e2eBaseURL(), 'profiles.deleteLink', { url })).status).toBe(200);
  await noah.context().close();
});

test('a visitor pressing Subscribe signs in first and comes back to the subscribe page; an unknown creator is not found', async ({ page }) => {
  await page.goto('/nobody-by-this-name/subscribe');
  await expect(page.getByRole('heading', { name: PROFILE_TEXTS.creatorNotFound })).toBeVisible();

  await page.goto('/kai/subscribe');
  const first = article(page, CREATORS.find((c) => c.username === 'kai')!.tiers[0]!.name);
  await first.getByRole('button', { name: 'Subscribe' }).click();
  await expect(toast(page, BILLING_TEXTS.signInToSubscribe)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\?tab=signin$/);
  // lena subscribes to kai in the seed: back on the page, it says so instead of charging again
  await page.getByLabel('Email').fill('lena@demo.test');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/kai\/subscribe$/);
  await expect(page.getByRole('status').filter({ hasText: /^Subscribed to / })).toBeVisible();
  await expect(page.getByRole('article').getByText('Subscribed', { exact: true })).toHaveCount(1);
});

test('an ended subscription offers Resubscribe, through the confirmation, and nothing is charged before Pay', async ({ browser }) => {
  // zoe's subscription to kai lapsed in the seed
  const zoe = await newPageAs(browser, 'zoe', { at: '/settings/account/subscriptions' });
  const kai = CREATORS.find((c) => c.username === 'kai')!;
  const row = zoe.getByRole('list', { name: 'Your subscriptions' }).getByRole('listitem').filter({ hasText: kai.displayName });
  await expect(row.getByTestId('subscription-status')).toHaveText(/^Ended on /);
  const before = await trpcQuery<unknown[]>(zoe.request, 'payments.history', undefined);
  // the plan's price as the row shows it (the page behind an open dialog is hidden from the accessibility tree)
  const price = (await row.getByText(/^R[\d,]+\.\d\d \/ (week|month|year)$/).innerText()).split(' / ')[0]!;
  await row.getByRole('button', { name: 'Resubscribe' }).click();
  const confirm = zoe.getByRole('alertdialog', { name: `Subscribe to ${kai.displayName}` });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByTestId('charged-now')).toHaveText(price);
  await expect(confirm.getByRole('button', { name: `Pay ${price}` })).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect(await trpcQuery<unknown[]>(zoe.request, 'payments.history', undefined)).toEqual(before);
  await zoe.context().close();
});

test('a renewal that failed tells the fan what to do, on the subscriptions screen and in the profile dialog', async ({ browser }) => {
  // fan07 (read by no other spec): the renewal of one of their subscriptions failed, as the job
  // leaves it (still active, past due, access until the grace ends); put back afterwards
  const FAN07 = 'fan07@demo.test';
  const row = await withDatabase(async (db) =>
    (
      await db.query<{ id: string; username: string; display_name: string; grace_until: Date }>(
        `UPDATE subscriptions s SET past_due_since = now(), grace_until = s.current_period_end + interval '3 days'
         FROM subscription_tiers t JOIN profiles pr ON pr.id = t.creator_id
         WHERE s.id = (SELECT s2.id FROM subscriptions s2 JOIN subscription_tiers t2 ON t2.id = s2.tier_id
                       WHERE s2.subscriber_id = (SELECT id FROM users WHERE email = $1) AND s2.status = 'active' AND t2.creator_id IS NOT NULL
                       ORDER BY s2.current_period_end LIMIT 1)
           AND t.id = s.tier_id
         RETURNING s.id, pr.username, pr.display_name, s.grace_until`,
        [FAN07],
      )
    ).rows[0],
  );
  expect(row, 'fan07 subscribes to a creator in the seed').toBeTruthy();
  const until = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }).format(row!.grace_until);
  try {
    const fan = await newPageAs(browser, FAN07, { at: '/settings/account/subscriptions' });
    const item = fan.getByRole('list', { name: 'Your subscriptions' }).getByRole('listitem').filter({ hasText: row!.display_name });
    await expect(item.getByTestId('subscription-status')).toHaveText(`Payment failed: access until ${until}`);
    await expect(item.getByTestId('past-due-notice')).toHaveText(BILLING_TEXTS.renewalFailed(until));
    await expect(item.getByRole('button', { name: 'Cancel' })).toBeVisible();

    await fan.goto(`/${row!.username}`);
    await fan.getByTestId('subscribed').click();
    const manage = fan.getByRole('alertdialog', { name: `Your subscription to ${row!.display_name}` });
    await expect(manage.getByTestId('past-due-notice')).toHaveText(BILLING_TEXTS.renewalFailed(until));
    await shoot(fan, 'subscription-dialog-past-due', { fullPage: false });
    await fan.context().close();
  } finally {
    await withDatabase((db) => db.query('UPDATE subscriptions SET past_due_since = null, grace_until = null WHERE id = $1', [row!.id]));
  }
});
