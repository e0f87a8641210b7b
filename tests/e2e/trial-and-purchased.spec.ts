import { expect, test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { bulkFan } from '../../scripts/seed/cast';
import { e2eBaseURL, findPost, newPageAs, trpcMutation, trpcQuery } from './support/app';
import { becomeVerifiedCreator } from './support/new-creator';
import { withDatabase } from './support/retry-reset';
import { shootWidths } from './support/screens';

/**
 * Issue 47 items 7 and 8 in a browser. A trial reads as a trial: a fan (fan37 of the bulk fans,
 * bulkFan(36)) claims a new creator's (bulkFan(35)) free trial, and Settings > Subscriptions says
 * "Free trial until <date>, then R49.00 a month" and when the first charge comes, not "Renews on".
 * Bought means bought: a fan (bulkFan(33)) buys kai's seeded pay-per-view post ('Secret skip,
 * explained', R75): its page and kai's profile say "Purchased" (no lock, no price), and the fan's
 * own profile leads to the Purchased collection, which lists it (All and Posts, not Messages);
 * someone else (bulkFan(32)) opening that address is told purchases are private.
 */
const CREATOR = bulkFan(35);
const TRIAL_FAN = bulkFan(36);
const BUYER = bulkFan(33);
const OTHER = bulkFan(32);
const POST = 'Secret skip, explained';


test('a trial reads as a trial on Settings > Subscriptions', async ({ browser }) => {
  test.setTimeout(120_000);
  const tierName = `Trial ${randomUUID().slice(0, 6)}`;
  // a failed earlier attempt may have left this fan a trial of this creator: one per fan and creator
  await withDatabase((db) =>
    db.query(`DELETE FROM subscriptions WHERE subscriber_id = (SELECT id FROM users WHERE email = $1)`, [TRIAL_FAN.email])
      .then(() => db.query(`DELETE FROM trial_claims WHERE fan_id = (SELECT id FROM users WHERE email = $1)`, [TRIAL_FAN.email])),
  );
  const creator = await newPageAs(browser, CREATOR.email, { at: '/settings/account' });
  await becomeVerifiedCreator(creator.request);
  expect((await trpcMutation(creator.request, e2eBaseURL(), 'tiers.create', { name: tierName, price: '49', paymentInterval: 'monthly', discountPercentage: 0 })).status).toBe(200);
  const tierId = (await trpcQuery<{ id: string; name: string }[]>(creator.request, 'tiers.listMine', undefined)).find((t) => t.name === tierName)!.id;
  const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
  expect((await trpcMutation(creator.request, e2eBaseURL(), 'trials.create', { tierId, days: 7, maxClaims: 5, expiresAt })).status).toBe(200);
  const { links } = await trpcQuery<{ links: { code: string; tierName: string }[] }>(creator.request, 'trials.listMine', {});
  const code = links.find((l) => l.tierName === tierName)!.code;

  const fan = await newPageAs(browser, TRIAL_FAN.email, { at: '/settings/account' });
  expect((await trpcMutation(fan.request, e2eBaseURL(), 'trials.claim', { code, idempotencyKey: randomUUID(), confirmedAmount: '49.00' })).status).toBe(200);

  await fan.goto('/settings/account/subscriptions');
  const row = fan.getByRole('listitem', { name: new RegExp(tierName) });
  // "Free trial until Dec 13, then R49.00 a month" (the date as the app writes dates), not "R49.00 / month · Renews on"
  await expect(row.getByTestId('subscription-price')).toHaveText(/^Free trial until .+, then R49\.00 a month$/);
  await expect(row.getByTestId('subscription-status')).toHaveText(/^First charge on /);
  await expect(row).not.toContainText('Renews on');
  const until = (await row.getByTestId('subscription-price').innerText()).match(/until (.+), then/)![1];
  expect(await row.getByTestId('subscription-status').innerText()).toBe(`First charge on ${until}`);
  await shootWidths(fan, 'trial-subscriptions');
  // the same words in the profile's subscription dialog
  await fan.goto(`/${CREATOR.username}`);
  await fan.getByTestId('subscribed').click();
  const dialog = fan.getByTestId('subscription-dialog');
  await expect(dialog.getByTestId('subscription-price')).toContainText(`Free trial until ${until}, then R49.00 a month`);
  await expect(dialog.getByTestId('subscription-status')).toHaveText(`First charge on ${until}`);
  await expect(dialog).toContainText('First charge');
  await shootWidths(fan, 'trial-subscription-dialog');
  await Promise.all([creator.context().close(), fan.context().close()]);
});

test('a purchase shows as Purchased and is in the fan’s Purchased collection', async ({ browser }) => {
  test.setTimeout(120_000);
  const [fan, other] = await Promise.all([newPageAs(browser, BUYER.email), newPageAs(browser, OTHER.email)]);
  const post = await findPost(fan.request, POST);
  await fan.goto(`/post/${post.id}`);
  const card = fan.locator(`article[data-post-id="${post.id}"]`).first();
  await expect(card.getByTestId('unlock-badge')).toContainText('R75.00');
  await expect(card.getByTestId('purchased-badge')).toHaveCount(0);

  expect((await trpcMutation(fan.request, e2eBaseURL(), 'postUnlocks.unlock', { postId: post.id, idempotencyKey: randomUUID(), confirmedAmount: '75.00' })).status).toBe(200);
  // the post's page and kai's profile: Purchased, no lock and no price
  await fan.reload();
  await expect(card.getByTestId('purchased-badge')).toHaveText('Purchased');
  await expect(card.getByTestId('unlock-badge')).toHaveCount(0);
  await expect(card.getByTestId('unlock-overlay')).toHaveCount(0);
  await shootWidths(fan, 'purchased-post');
  await fan.goto('/kai');
  const onProfile = fan.locator(`article[data-post-id="${post.id}"]`).first();
  await expect(onProfile.getByTestId('purchased-badge')).toHaveText('Purchased');
  await expect(onProfile.getByTestId('unlock-badge')).toHaveCount(0);

  // the fan's own profile leads to the collection
  await fan.goto(`/${BUYER.username}`);
  await expect(fan.getByRole('link', { name: 'Purchased' })).toBeVisible();
  await shootWidths(fan, 'purchased-profile-link');
  await fan.getByRole('link', { name: 'Purchased' }).click();
  await expect(fan).toHaveURL(new RegExp(`/${BUYER.username.replace('.', '\\.')}/purchased$`));
  await expect(fan.getByRole('heading', { level: 1, name: 'Purchased' })).toBeVisible();
  const list = fan.getByRole('list', { name: 'Your purchases' });
  const bought = list.getByRole('listitem', { name: POST });
  await expect(bought).toContainText('R75.00');
  await expect(bought).toContainText('Purchased');
  await shootWidths(fan, 'purchased-collection');
  await fan.getByRole('button', { name: 'Messages' }).click();
  await expect(fan.getByRole('button', { name: 'Messages' })).toHaveAttribute('aria-pressed', 'true');
  await expect(fan.getByText('No paid messages bought yet.')).toBeVisible();
  await shootWidths(fan, 'purchased-collection-messages');
  await fan.getByRole('button', { name: 'Posts' }).click();
  await expect(list.getByRole('listitem', { name: POST })).toBeVisible();
  await bought.getByRole('link', { name: POST }).click();
  await expect(fan).toHaveURL(new RegExp(`/post/${post.id}$`));

  // somebody else at that address: private
  await other.goto(`/${BUYER.username}/purchased`);
  await expect(other.getByText('Purchases are private')).toBeVisible();
  await expect(other.getByRole('list', { name: 'Your purchases' })).toHaveCount(0);
  await Promise.all([fan.context().close(), other.context().close()]);
});
