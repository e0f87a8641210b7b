import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { BILLING_TEXTS } from '../../common/texts';
import { renderMetrics } from '../../core/metrics';
import { insertPayment } from '../../domain/billing/billing.queries';
import { DAY_MS } from '../../domain/billing/periods';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';
import { recordSubscription } from '../../domain/subscriptions/write';
import { weeklyPayoutsJob } from '../../worker/jobs/payouts';
import type { WorkerDeps } from '../../worker/registry';
import { makePost, makeUser } from '../helpers/factories';
import { useTestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { storedRand } from '../helpers/money';

/**
 * Issue 45 item 5, the smaller findings of the review, with the built-in provider configured:
 *   - a provider call goes to the provider of the row: cancelling a Stripe subscription while
 *     only the built-in provider is configured fails loudly and changes nothing (it was a silent
 *     no-op: the row said "cancelled", Stripe kept renewing);
 *   - one creator's failure never stops a weekly payout run;
 *   - a request key spent on another purpose answers 409 'This request key was already used' (a
 *     tip's key sent to subscribe was a 500).
 */
const app = useTestServer();

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0)) await undo();
});

async function creatorWithTier(price = '50') {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const asCreator = await clientAs(app, creator.id);
  const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price, paymentInterval: 'monthly' });
  return { creator, asCreator, tier };
}

describe('provider calls go to the provider of the row', () => {
  it('cancelling a Stripe subscription with only the built-in provider configured fails and leaves it renewing; a built-in one cancels', async () => {
    const { tier } = await creatorWithTier();
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const now = Date.now();
    const stripeSub = await recordSubscription(app.deps.db, {
      subscriberId: fan.id, tierId: tier.id, status: 'active', periodStart: new Date(now - DAY_MS), periodEnd: new Date(now + 29 * DAY_MS),
      provider: 'stripe', providerSubscriptionId: `sub_${randomUUID().slice(0, 8)}`, createdAt: new Date(now - DAY_MS),
    });
    expect(app.deps.payments.name).toBe('builtin');

    // Stripe cannot be told: the request fails and the row says what Stripe still does (renews)
    await expectTrpcError(asFan.trpc.subscriptions.cancel.mutate({ id: stripeSub }), 'BAD_GATEWAY');
    const row = await app.deps.db.selectFrom('subscriptions').select('cancel_at_period_end').where('id', '=', stripeSub).executeTakeFirstOrThrow();
    expect(row.cancel_at_period_end).toBe(false);

    // a built-in subscription has nobody else to tell: cancelled
    const other = await creatorWithTier();
    const builtin = await asFan.trpc.subscriptions.subscribe.mutate({ tierId: other.tier.id, idempotencyKey: randomUUID(), confirmedAmount: '50.00' });
    if (builtin.kind !== 'subscribed') throw new Error(`expected a subscription, got ${builtin.kind}`);
    await asFan.trpc.subscriptions.cancel.mutate({ id: builtin.subscriptionId });
    const cancelled = await app.deps.db.selectFrom('subscriptions').select('cancel_at_period_end').where('id', '=', builtin.subscriptionId).executeTakeFirstOrThrow();
    expect(cancelled.cancel_at_period_end).toBe(true);
  });
});

describe('a weekly payout run', () => {
  /** A creator with a (test) payout account and R400 available: a R500 charge 8 days ago. */
  async function creatorWithBalance() {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    await (await clientAs(app, creator.id)).trpc.earnings.setUpPayouts.mutate();
    await app.deps.db.transaction().execute((trx) =>
      insertPayment(trx, {
        userId: fan.id, tierId: null, creatorId: creator.id, subscriptionId: null, description: 'Tip', idempotencyKey: null, systemKey: `c-${randomUUID()}`,
        amountCents: 500_00, provider: 'builtin', providerRef: `builtin_${randomUUID()}`, status: 'succeeded', createdAt: new Date(Date.now() - 8 * DAY_MS),
        earnings: DEFAULT_EARNINGS_POLICY, tip: { message: null },
      }),
    );
    return creator;
  }
  const failuresCounted = async () => {
    const line = (await renderMetrics()).body.split('\n').find((l) => l.startsWith('payout_run_failures_total '));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('pays every other creator when one creator\'s payout throws something other than a billing refusal, and logs and counts that one', async () => {
    const creators = [await creatorWithBalance(), await creatorWithBalance(), await creatorWithBalance()];
    const broken = creators[1]!;
    // a row the database refuses, for this one creator only (as a constraint or a bug would)
    const fn = `refuse_payout_${randomUUID().replaceAll('-', '')}`;
    await sql.raw(`create function ${fn}() returns trigger language plpgsql as $$ begin
      if new.creator_id = '${broken.id}' then raise exception 'payout refused for this test'; end if; return new; end $$`).execute(app.deps.db);
    await sql.raw(`create trigger ${fn} before insert on payouts for each row execute function ${fn}()`).execute(app.deps.db);
    cleanups.push(() => sql.raw(`drop trigger ${fn} on payouts; drop function ${fn}();`).execute(app.deps.db));

    const logged: unknown[] = [];
    const log = { ...app.deps.log, error: (obj: unknown) => void logged.push(obj), warn: () => undefined, info: () => undefined };
    const before = await failuresCounted();
    const run = await weeklyPayoutsJob({ ...app.deps, log } as unknown as WorkerDeps);

    expect(run).toEqual({ created: 2, failures: 1 });
    const paidOut = await app.deps.db.selectFrom('payouts').select(['creator_id', 'amount_cents']).where('creator_id', 'in', creators.map((c) => c.id)).execute();
    expect(paidOut.map((p) => p.creator_id).sort()).toEqual([creators[0]!.id, creators[2]!.id].sort());
    expect(paidOut.map((p) => Number(p.amount_cents))).toEqual([40_000, 40_000]);
    expect(logged).toEqual([expect.objectContaining({ creatorId: broken.id, error: expect.objectContaining({ message: expect.stringContaining('payout refused for this test') }) })]);
    expect(await failuresCounted()).toBe(before + 1);
  });
});

describe('a request key spent on another purpose', () => {
  it('answers 409 on subscribe, Premium, tips and unlocks, and charges nothing more', async () => {
    const { creator, tier } = await creatorWithTier();
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const key = randomUUID();
    await asFan.trpc.tips.send.mutate({ creatorUsername: creator.username, amount: '20.00', confirmedAmount: '20.00', idempotencyKey: key, message: null });
    const payments = async () => (await app.deps.db.selectFrom('payments').select('id').where('user_id', '=', fan.id).execute()).length;
    expect(await payments()).toBe(1);

    await expectTrpcError(asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: key, confirmedAmount: '50.00' }), 'CONFLICT', BILLING_TEXTS.requestKeyUsed);
    const premium = await app.deps.db.selectFrom('subscription_tiers').select(['id', 'price_cents']).where('creator_id', 'is', null).executeTakeFirst();
    if (premium) {
      await expectTrpcError(asFan.trpc.subscriptions.upgradePremium.mutate({ tierId: premium.id, idempotencyKey: key, confirmedAmount: storedRand(premium.price_cents) }), 'CONFLICT', BILLING_TEXTS.requestKeyUsed);
    }
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, kind: 'image', unlock: { priceCents: 3000, mode: 'everyone' } });
    await expectTrpcError(asFan.trpc.postUnlocks.unlock.mutate({ postId: post.id, idempotencyKey: key, confirmedAmount: '30.00' }), 'CONFLICT', BILLING_TEXTS.requestKeyUsed);
    // the same tip's key sent to another creator's tip
    const other = await creatorWithTier();
    await expectTrpcError(
      asFan.trpc.tips.send.mutate({ creatorUsername: other.creator.username, amount: '20.00', confirmedAmount: '20.00', idempotencyKey: key, message: null }),
      'CONFLICT', BILLING_TEXTS.requestKeyUsed,
    );
    expect(await payments()).toBe(1);

    // a subscription's key sent to a tip
    const subKey = randomUUID();
    await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: subKey, confirmedAmount: '50.00' });
    await expectTrpcError(
      asFan.trpc.tips.send.mutate({ creatorUsername: creator.username, amount: '20.00', confirmedAmount: '20.00', idempotencyKey: subKey, message: null }),
      'CONFLICT', BILLING_TEXTS.requestKeyUsed,
    );
    // and to another tier of the same creator (a tier change would write nothing: the key is the subscription's)
    const silver = await (await clientAs(app, creator.id)).trpc.tiers.create.mutate({ name: 'Silver', price: '30', paymentInterval: 'monthly' });
    await expectTrpcError(asFan.trpc.subscriptions.subscribe.mutate({ tierId: silver.id, idempotencyKey: subKey, confirmedAmount: '30.00' }), 'CONFLICT', BILLING_TEXTS.requestKeyUsed);
    expect(await payments()).toBe(2);
  });
});
