import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { addCalendarMonths } from '../../common/billing-periods';
import { bulkFan } from '../../scripts/seed/cast';
import { formatCalendarDate } from '../../src/lib/format';
import { e2eBaseURL, newPageAs, toasts, trpcMutation, trpcQuery } from './support/app';
import { becomeVerifiedCreator } from './support/new-creator';
import { withDatabase } from './support/retry-reset';
import { seriousViolations, violationLines, WCAG_A_AA } from './support/axe';
import { shootWidths } from './support/screens';

/**
 * Bundles (issue 27 item 5) in a browser: a new creator (fan31, in no other spec's purchases) sets
 * a 3-month bundle on a monthly tier in the Subscription Tiers tab (a bad discount is refused
 * first); a fan (fan32) sees it on the subscribe page with its total and saving, confirms it in
 * the one confirmation, double-presses Pay, and is charged once; their subscriptions list shows
 * the bundle's price and the period end three months ahead.
 */
const CREATOR = bulkFan(30);
const FAN = bulkFan(31);

/** Serious or critical axe violations (WCAG A and AA) in `selector`, one line each. */
async function axeViolations(page: Page, selector: string): Promise<string[]> {
  return violationLines(await seriousViolations(page, WCAG_A_AA, selector));
}


test('a fan buys a 3-month bundle: one charge of its total, the period end 3 months ahead in their subscriptions list', async ({ browser }) => {
  test.setTimeout(150_000);
  const tierName = `Bundle ${randomUUID().slice(0, 6)}`;
  // a failed earlier attempt may have left this fan subscribed to this creator
  await withDatabase((db) =>
    db.query(
      `DELETE FROM subscriptions WHERE subscriber_id = (SELECT id FROM users WHERE email = $1)
         AND tier_id IN (SELECT t.id FROM subscription_tiers t JOIN users u ON u.id = t.creator_id WHERE u.email = $2)`,
      [FAN.email, CREATOR.email],
    ),
  );
  const creator = await newPageAs(browser, CREATOR.email, { at: '/settings/account/payment' });
  await becomeVerifiedCreator(creator.request);
  expect((await trpcMutation(creator.request, e2eBaseURL(), 'tiers.create', { name: tierName, price: '60', paymentInterval: 'monthly', discountPercentage: 0 })).status).toBe(200);

  // --- the creator sets the bundle: a discount over 75 % is refused beside its field, then 10 % is saved
  await creator.goto('/create?tab=tiers');
  const form = creator.getByRole('form', { name: `${tierName} bundles` });
  await form.getByLabel('3 months: % off').fill('80');
  await form.getByRole('button', { name: 'Save bundles' }).click();
  await expect(form.getByText('The bundle discount must be a whole number from 1 to 75.')).toBeVisible();
  expect((await trpcQuery<{ tierId: string }[]>(creator.request, 'bundles.listMine', undefined)).length).toBe(0);
  await form.getByLabel('3 months: % off').fill('10');
  await form.getByRole('button', { name: 'Save bundles' }).click();
  await expect(toasts(creator).getByText('Bundles saved')).toBeVisible();
  await expect(form.getByText('Fans pay R162.00 (save R18.00)')).toBeVisible();
  expect(await axeViolations(creator, 'section[aria-labelledby="bundles-heading"]')).toEqual([]);
  await shootWidths(creator, 'bundles-tier-manager');

  // --- the fan sees it, confirms its total, double-presses Pay: one charge
  const fan = await newPageAs(browser, FAN.email, { at: `/${CREATOR.username}/subscribe` });
  const card = fan.getByRole('article', { name: tierName });
  const bundle = card.getByRole('button', { name: /Buy 3 months of .* for R162\.00, Save R18\.00 \(10% off\)/ });
  await expect(bundle).toBeVisible();
  expect(await axeViolations(fan, 'main')).toEqual([]);
  await shootWidths(fan, 'bundles-subscribe-page');
  await bundle.click();
  const confirm = fan.getByTestId('purchase-dialog');
  await expect(confirm.getByTestId('charged-now')).toHaveText('R162.00');
  await expect(confirm.getByTestId('renewal-amount')).toContainText('R162.00 every 3 months');
  await shootWidths(fan, 'bundles-confirm');
  await confirm.getByRole('button', { name: /Pay R162\.00/ }).dblclick();
  await expect(toasts(fan).getByText("You've successfully subscribed!")).toBeVisible();
  const charges = async () =>
    (await trpcQuery<{ description: string; amount: string }[]>(fan.request, 'payments.history', undefined)).filter((p) => p.description.endsWith(`${tierName} — 3 months`));
  expect((await charges()).map((c) => c.amount)).toEqual(['162.00']);

  // --- their subscriptions list: the bundle's price and the end 3 months ahead
  await fan.goto('/settings/account/subscriptions');
  const row = fan.getByRole('listitem').filter({ hasText: tierName });
  await expect(row.getByTestId('subscription-price')).toHaveText('R162.00 / 3 months');
  await expect(row.getByTestId('subscription-status')).toContainText(formatCalendarDate(addCalendarMonths(new Date(), 3)));
  await shootWidths(fan, 'bundles-my-subscriptions');
  await Promise.all([creator.context().close(), fan.context().close()]);
});
