import { expect, test } from '@playwright/test';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { bulkFan } from '../../scripts/seed/cast';
import { e2eBaseURL, newPageAs, toasts, trpcMutation, trpcQuery } from './support/app';
import { becomeVerifiedCreator } from './support/new-creator';
import { withDatabase } from './support/retry-reset';
import { shootWidths } from './support/screens';

/**
 * Issue 27 item 5 in a browser: a new creator (fan39, in no other spec's purchases) makes a free
 * trial link on the Subscription Tiers tab; a fan (fan40) opens it, confirms, and has the
 * creator's premium access with nothing charged; the trial's end comes (the test moves the
 * subscription's clock: its period and trial end to a minute ago, as the days passing would) and
 * the renewal job, run twice, charges the tier's price once.
 */
const CREATOR = bulkFan(38);
const FAN = bulkFan(39);


async function runBillingMaintenance() {
  const connection = new Redis({ maxRetriesPerRequest: null });
  const maintenance = new Queue('maintenance', { connection, prefix: process.env.E2E_REDIS_PREFIX });
  await maintenance.add('billing-maintenance', {});
  await maintenance.close();
  connection.disconnect();
}

test('a trial link gives a new fan premium access with no charge; at its end the renewal charges once', async ({ browser }) => {
  test.setTimeout(150_000);
  const tierName = `Trial ${randomUUID().slice(0, 6)}`;
  // a failed earlier attempt may have left this fan a trial of this creator: one per fan and creator
  await withDatabase((db) =>
    db.query(
      `DELETE FROM subscriptions WHERE subscriber_id = (SELECT id FROM users WHERE email = $1)
         AND tier_id IN (SELECT t.id FROM subscription_tiers t JOIN users u ON u.id = t.creator_id WHERE u.email = $2)`,
      [FAN.email, CREATOR.email],
    ).then(() => db.query(`DELETE FROM trial_claims WHERE fan_id = (SELECT id FROM users WHERE email = $1)`, [FAN.email])),
  );
  const creator = await newPageAs(browser, CREATOR.email, { at: '/settings/account/payment' });
  await becomeVerifiedCreator(creator.request);
  expect((await trpcMutation(creator.request, e2eBaseURL(), 'tiers.create', { name: tierName, price: '60', paymentInterval: 'monthly', discountPercentage: 0 })).status).toBe(200);

  // --- the creator makes a link
  await creator.goto('/create?tab=tiers');
  await creator.getByRole('button', { name: 'New trial link' }).click();
  const form = creator.getByRole('form', { name: 'New trial link' });
  await form.getByLabel('Tier').selectOption({ label: `${tierName} (R60.00)` });
  await form.getByLabel('Free days').fill('7');
  await form.getByLabel('Claims').fill('5');
  await shootWidths(creator, 'trial-link-form');
  await form.getByRole('button', { name: 'Create link' }).click();
  await expect(toasts(creator).getByText('Trial link created')).toBeVisible();
  const row = creator.getByRole('listitem', { name: `7 days free of ${tierName}` });
  await expect(row.getByTestId('trial-claims')).toContainText('0 of 5 claimed');
  const { links } = await trpcQuery<{ links: { code: string; tierName: string }[] }>(creator.request, 'trials.listMine', {});
  const code = links.find((l) => l.tierName === tierName)!.code;

  // --- the fan opens it, confirms, and is in: nothing charged
  const fan = await newPageAs(browser, FAN.email, { at: `/trial/${code}` });
  await expect(fan.getByRole('heading', { level: 1 })).toContainText('7 days of');
  await expect(fan.getByTestId('trial-then')).toContainText('R60.00 every month');
  await shootWidths(fan, 'trial-page');
  await fan.getByRole('button', { name: 'Start free trial' }).click();
  const confirm = fan.getByTestId('purchase-dialog');
  await expect(confirm.getByTestId('charged-now')).toHaveText('Nothing');
  await expect(confirm.getByTestId('renewal-amount')).toContainText('R60.00');
  await shootWidths(fan, 'trial-confirm');
  await confirm.getByRole('button', { name: 'Start free trial' }).dblclick();
  await expect(toasts(fan).getByText(/7-day free trial of .* has started/)).toBeVisible();
  await expect(fan).toHaveURL(new RegExp(`/${CREATOR.username.replace('.', '\\.')}$`));
  const profile = await trpcQuery<{ viewer: { isSubscribed: boolean } }>(fan.request, 'profiles.byUsername', { username: CREATOR.username });
  expect(profile.viewer.isSubscribed).toBe(true);
  const charges = async () =>
    (await trpcQuery<{ description: string; amount: string }[]>(fan.request, 'payments.history', undefined)).filter((p) => p.description.endsWith(tierName));
  expect(await charges()).toEqual([]);
  await creator.reload();
  await expect(creator.getByRole('listitem', { name: `7 days free of ${tierName}` }).getByTestId('trial-claims')).toContainText('1 of 5 claimed');
  await shootWidths(creator, 'trial-links');

  // --- the trial's end: the renewal job, run twice, charges once
  await withDatabase((db) =>
    db.query(
      `UPDATE subscriptions SET current_period_start = now() - interval '7 days', current_period_end = now() - interval '1 minute',
              trial_ends_at = now() - interval '1 minute'
        WHERE subscriber_id = (SELECT id FROM users WHERE email = $1) AND trial_ends_at IS NOT NULL`,
      [FAN.email],
    ),
  );
  await runBillingMaintenance();
  await runBillingMaintenance();
  await expect.poll(async () => (await charges()).map((c) => c.amount), { timeout: 30_000 }).toEqual(['60.00']);
  expect((await trpcQuery<{ viewer: { isSubscribed: boolean } }>(fan.request, 'profiles.byUsername', { username: CREATOR.username })).viewer.isSubscribed).toBe(true);
  await Promise.all([creator.context().close(), fan.context().close()]);
});

test("the seeded offer: a new fan sees leo's first period a quarter off, and the confirmation charges that price now and the tier's price after", async ({ browser }) => {
  const fan = await newPageAs(browser, FAN.email, { at: '/leo/subscribe' });
  const card = fan.getByRole('article').filter({ has: fan.getByTestId('tier-offer') }).first();
  await expect(card.getByTestId('tier-offer')).toContainText('25% off your first');
  await shootWidths(fan, 'offer-subscribe-page');
  const offer = await card.getByTestId('tier-offer').innerText();
  const [was, now] = [...offer.matchAll(/R[\d,]+\.\d\d/g)].map((m) => m[0]);
  await card.getByRole('button', { name: 'Subscribe' }).click();
  const confirm = fan.getByTestId('purchase-dialog');
  await expect(confirm.getByTestId('charged-now')).toHaveText(now!);
  await expect(confirm.getByTestId('renewal-amount')).toContainText(was!);
  await shootWidths(fan, 'offer-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await fan.context().close();
});
