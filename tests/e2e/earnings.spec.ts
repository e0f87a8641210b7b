import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BILLING_TEXTS } from '../../common/texts';
import { EARNINGS_TEXTS } from '../../common/earnings-texts';
import { bulkFan } from '../../scripts/seed/cast';
import { e2eBaseURL, imagesSettled, newPageAs, toasts, trpcMutation, trpcQuery } from './support/app';
import { becomeVerifiedCreator } from './support/new-creator';
import { withDatabase } from './support/retry-reset';

/**
 * Issue 26's journey: a fan subscribes to a new creator; the creator's Earnings tab shows the
 * charge less the platform's fee as pending; past the hold (the test moves the ledger's clock: the
 * earning's available_at, as the days passing would) it is available; Withdraw pays it out (the
 * worker's send-payout job, built-in test account) and the balance is zero; a refund afterwards
 * takes the balance below zero, and the next earning covers it. Uses bulk fans no other spec
 * reads: fan20 becomes the creator, fan21 and fan22 are the fans.
 */
const screens = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts/screens');
const CREATOR = bulkFan(19);
const FANS = [bulkFan(20), bulkFan(21)];

async function shoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await imagesSettled(page);
    await page.screenshot({ path: path.join(screens, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * The hold passes: the creator's pending earnings are released to available now, as the app's own
 * 'hold_released' journal would (the ledger is append-only: nothing is back-dated). Each pending
 * line still in its hold is matched by a line of the same time, so it nets out of pending.
 */
const holdPasses = (creatorEmail: string) =>
  withDatabase((db) =>
    db.query(
      `WITH me AS (SELECT id FROM users WHERE email = $1),
            held AS (SELECT l.account_id, l.amount_cents, l.available_at FROM journal_lines l
                     JOIN ledger_accounts a ON a.id = l.account_id JOIN me ON a.owner_id = me.id AND a.kind = 'creator_pending'
                     WHERE l.available_at > now()),
            avail AS (INSERT INTO ledger_accounts (kind, owner_id) SELECT 'creator_available', me.id FROM me
                      ON CONFLICT (owner_id, kind) WHERE owner_id IS NOT NULL DO UPDATE SET kind = excluded.kind RETURNING id),
            j AS (INSERT INTO journal_entries (kind, key, occurred_at) SELECT 'hold_released', 'test-hold-' || gen_random_uuid(), now()
                  WHERE EXISTS (SELECT 1 FROM held) RETURNING id)
       INSERT INTO journal_lines (journal_id, account_id, currency, kind, amount_cents, available_at, occurred_at)
       SELECT j.id, held.account_id, 'ZAR', 'hold_released', -held.amount_cents, held.available_at, now() FROM j, held
       UNION ALL
       SELECT j.id, avail.id, 'ZAR', 'hold_released', (SELECT sum(amount_cents) FROM held), NULL, now() FROM j, avail`,
      [creatorEmail],
    ),
  );

test('a subscription shows as pending earnings less the fee, becomes available after the hold, is withdrawn and paid; a refund then goes below zero and the next earning covers it', async ({ browser }) => {
  test.setTimeout(150_000);
  const tierName = `Earnings ${randomUUID().slice(0, 6)}`;
  const creator = await newPageAs(browser, CREATOR.email, { at: '/settings/account/payment' });
  // a new creator with a R300 tier (a failed earlier attempt may have made them one already)
  await becomeVerifiedCreator(creator.request);
  const made = await trpcMutation(creator.request, e2eBaseURL(), 'tiers.create', { name: tierName, price: '300', paymentInterval: 'monthly', discountPercentage: 0 });
  expect(made.status).toBe(200);

  // --- payouts: the built-in provider's test account, labelled as such
  await creator.reload();
  const payouts = creator.getByRole('region', { name: EARNINGS_TEXTS.payoutAccountTitle });
  const setUp = payouts.getByRole('button', { name: EARNINGS_TEXTS.setUpPayouts });
  // the section loads first: then either the button to set up, or the account already enabled
  await expect(setUp.or(payouts.getByText(EARNINGS_TEXTS.accountStatus.enabled, { exact: true }))).toBeVisible();
  if (await setUp.isVisible()) await setUp.click();
  await expect(payouts.getByTestId('payout-account-status')).toHaveText(EARNINGS_TEXTS.accountStatus.enabled);
  await expect(payouts.getByText(EARNINGS_TEXTS.testAccountLabel)).toBeVisible();
  await shoot(creator, 'payout-account');

  // --- a fan subscribes, through the confirmation
  const fan = await newPageAs(browser, FANS[0]!.email, { at: `/${CREATOR.username}/subscribe` });
  await fan.getByRole('article', { name: tierName, exact: true }).getByRole('button', { name: 'Subscribe' }).click();
  await fan.getByRole('alertdialog').getByRole('button', { name: 'Pay R300.00' }).click();
  await expect(toasts(fan).getByText(BILLING_TEXTS.subscribed, { exact: true })).toBeVisible();
  const [charge] = (await trpcQuery<{ id: string; description: string; kind: string }[]>(fan.request, 'payments.history', undefined)).filter((p) => p.description.includes(tierName));
  await fan.context().close();

  // --- the creator's Earnings: R300 less the 20% fee, pending for 7 days
  await creator.goto('/create?tab=earnings');
  const figure = (id: string) => creator.getByTestId(`earnings-${id}`);
  await expect(figure('pending')).toHaveText('R240.00');
  const pendingBefore = await figure('pending').textContent();
  await expect(creator.getByTestId('pending-day').first()).toBeVisible();
  await expect(creator.getByText(EARNINGS_TEXTS.feeNote(20), { exact: false })).toBeVisible();
  await shoot(creator, 'earnings-pending');

  // --- the hold passes: available
  await holdPasses(CREATOR.email);
  await creator.reload();
  await expect(figure('pending')).toHaveText('R0.00');
  const available = await figure('available').textContent();
  expect(available).not.toBe('R0.00');
  expect(pendingBefore).toContain('R240.00');

  // --- Withdraw asks first, then the payout is paid and the balance is zero
  await creator.getByRole('button', { name: EARNINGS_TEXTS.withdraw, exact: true }).click();
  const confirm = creator.getByRole('alertdialog', { name: EARNINGS_TEXTS.withdrawConfirmTitle });
  await expect(confirm).toContainText('test account');
  await confirm.getByRole('button', { name: `${EARNINGS_TEXTS.withdraw} ${available}` }).click();
  await expect(toasts(creator).getByText(EARNINGS_TEXTS.withdrawQueued)).toBeVisible();
  await expect(async () => {
    await creator.reload();
    await expect(creator.getByTestId('payout-status').first()).toHaveText('Paid', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(figure('available')).toHaveText('R0.00');
  await expect(figure('paid-out')).toHaveText(available!);
  await shoot(creator, 'earnings-paid');

  // --- an admin refunds the fan's charge in full: the creator's balance goes below zero
  const admin = await newPageAs(browser, 'admin', { at: '/admin/payments' });
  const refund = await trpcMutation(admin.request, e2eBaseURL(), 'payments.adminRefund', { paymentId: charge!.id, amount: '300.00', idempotencyKey: randomUUID() });
  expect(refund.status).toBe(200);
  await expect(admin.getByRole('heading', { name: 'Fees, refunds and payouts' })).toBeVisible();
  await shoot(admin, 'admin-earnings');
  await admin.context().close();
  await expect(async () => {
    await creator.reload();
    await expect(figure('available')).toHaveText('-R240.00', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(creator.getByText(EARNINGS_TEXTS.negativeBalance)).toBeVisible();
  await expect(creator.getByRole('button', { name: EARNINGS_TEXTS.withdraw, exact: true })).toBeDisabled();
  await shoot(creator, 'earnings-negative');

  // --- the next earning covers it
  const next = await newPageAs(browser, FANS[1]!.email);
  const tiers = await trpcQuery<{ tiers: { id: string; name: string }[] }>(next.request, 'subscriptions.subscribePage', { username: CREATOR.username });
  const tierId = tiers.tiers.find((t) => t.name === tierName)!.id;
  expect((await trpcMutation(next.request, e2eBaseURL(), 'subscriptions.subscribe', { tierId, idempotencyKey: randomUUID(), confirmedAmount: '300.00' })).status).toBe(200);
  await next.context().close();
  await holdPasses(CREATOR.email);
  await creator.reload();
  await expect(figure('available')).toHaveText('R0.00');
  await expect(creator.getByText(EARNINGS_TEXTS.negativeBalance)).toHaveCount(0);
  await creator.context().close();
});
