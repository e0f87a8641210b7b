import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { BILLING_TEXTS } from '../../common/texts';
import { renderMetrics } from '../../core/metrics';
import { builtinProvider } from '../../core/payments/builtin';
import type { PaymentProvider } from '../../core/payments/provider';
import { fixedClock } from '../../core/clock';
import { RETRY_AFTER_FAILURE_MS, runBillingMaintenance } from '../../domain/billing/maintenance';
import { DAY_MS } from '../../domain/billing/periods';
import { purchase } from '../../domain/billing/purchase';
import { billingMaintenance } from '../../worker/jobs/billing';
import { makeUser, type MadeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { clockStart } from '../helpers/test-clock';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';

/**
 * Issue 22 item 1: no fan can stop billing for others. Every way we found to make one
 * subscription fail in the billing-maintenance run (a payment key a fan sent in the renewal key's
 * format, a provider that throws for one user, a row the database refuses, an archived tier, a
 * deleted next tier) leaves every other subscription renewed, expired or lapsed on time; the
 * failures are counted in /metrics and retried later, and a row that always fails cannot keep the
 * others out of a batch.
 */
const app = useFileServer({ emptyUsers: true });
const T0 = clockStart();
const WEEK = 7 * DAY_MS;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0)) await undo();
});

async function creatorWithTier(name = 'Gold') {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const asCreator = await clientAs(app, creator.id);
  const tier = await asCreator.trpc.tiers.create.mutate({ name, price: '50', paymentInterval: 'weekly', discountPercentage: 20 });
  return { creator, asCreator, tier };
}

async function subscribeAt(clock: ReturnType<typeof fixedClock>, fan: MadeUser, tierId: string, kind: 'creator' | 'premium' = 'creator') {
  const { result } = await purchase(
    { db: app.deps.db, provider: builtinProvider, clock, appUrl: app.url, earnings: DEFAULT_EARNINGS_POLICY },
    { userId: fan.id, email: fan.email, username: fan.username, tierId, idempotencyKey: randomUUID(), kind },
  );
  if (result.kind !== 'subscribed') throw new Error(`expected a subscription, got ${result.kind}`);
  return result.subscriptionId;
}

const subscription = (id: string) => app.deps.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const setAside = (id: string) => app.deps.db.selectFrom('subscription_billing_retries').selectAll().where('subscription_id', '=', id).executeTakeFirst();
const succeededPayments = async (userId: string) =>
  (await app.deps.db.selectFrom('payments').select('id').where('user_id', '=', userId).where('status', '=', 'succeeded').execute()).length;

/** billing_subscription_failures_total{step} as /metrics shows it now. */
async function failuresCounted(step: string): Promise<number> {
  const { body } = await renderMetrics();
  const line = body.split('\n').find((l) => l.startsWith(`billing_subscription_failures_total{step="${step}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** A provider whose charge throws (an outage, a bug) for one user and works for everyone else. */
function throwingFor(userId: string): PaymentProvider {
  return {
    ...builtinProvider,
    async charge(request) {
      if (request.userId === userId) throw new Error('provider exploded for this user');
      return builtinProvider.charge(request);
    },
  };
}

/** The database refuses any change to this subscription (a row no code path can write). */
async function refuseWritesTo(subscriptionId: string) {
  const fn = `refuse_${subscriptionId.replace(/-/g, '')}`;
  await sql
    .raw(
      `create function ${fn}() returns trigger language plpgsql as $$ begin
         if new.id = '${subscriptionId}' then raise exception 'poisoned subscription'; end if; return new; end $$;
       create trigger ${fn} before update on subscriptions for each row execute function ${fn}();`,
    )
    .execute(app.deps.db);
  cleanups.push(() => sql.raw(`drop trigger ${fn} on subscriptions; drop function ${fn}();`).execute(app.deps.db));
}

describe('one subscription that fails cannot stop billing for the others', () => {
  it('poisoned every way we know, the others still renew, expire and lapse; the failures are counted and retried', async () => {
    const { tier, asCreator } = await creatorWithTier();
    const clock = fixedClock(T0);
    const end = new Date(T0.getTime() + WEEK);

    // the healthy ones: a renewal, a cancelled subscription that must end, a cancelled Premium that must lapse
    const renews = await makeUser(app.deps.db);
    const renewsId = await subscribeAt(clock, renews, tier.id);
    const cancels = await makeUser(app.deps.db);
    const cancelsId = await subscribeAt(clock, cancels, tier.id);
    await (await clientAs(app, cancels.id)).trpc.subscriptions.cancel.mutate({ id: cancelsId });
    const premiumFan = await makeUser(app.deps.db);
    const premiumTier = await app.deps.db.selectFrom('subscription_tiers').select('id').where('creator_id', 'is', null).where('name', '=', 'Premium').executeTakeFirstOrThrow();
    clock.set(new Date(end.getTime() - 30 * DAY_MS));
    const premiumId = await subscribeAt(clock, premiumFan, premiumTier.id, 'premium');
    await (await clientAs(app, premiumFan.id)).trpc.subscriptions.cancel.mutate({ id: premiumId });
    expect((await app.deps.db.selectFrom('profiles').select('is_premium').where('id', '=', premiumFan.id).executeTakeFirstOrThrow()).is_premium).toBe(true);
    clock.set(T0);

    // 1. a payment whose key is the one the renewal will use (sent when clients could send any string)
    const keyed = await makeUser(app.deps.db);
    const keyedId = await subscribeAt(clock, keyed, tier.id);
    await app.deps.db
      .insertInto('payments')
      .values({
        user_id: keyed.id, tier_id: tier.id, description: 'Poison', amount_cents: 1, provider: 'builtin', status: 'succeeded',
        idempotency_key: `renewal-${keyedId}-${end.getTime()}`,
      })
      .execute();
    // 2. the provider throws for one fan
    const exploding = await makeUser(app.deps.db);
    const explodingId = await subscribeAt(clock, exploding, tier.id);
    // 3. a row the database refuses to change
    const refused = await makeUser(app.deps.db);
    const refusedId = await subscribeAt(clock, refused, tier.id);
    await refuseWritesTo(refusedId);
    // 4. an archived tier (it keeps renewing) and a tier change to a tier deleted since
    const { tier: archivedTier, asCreator: asOther } = await creatorWithTier('Old');
    const archivedFan = await makeUser(app.deps.db);
    const archivedId = await subscribeAt(clock, archivedFan, archivedTier.id);
    await asOther.trpc.tiers.delete.mutate({ id: archivedTier.id });
    const silver = await asCreator.trpc.tiers.create.mutate({ name: 'Silver', price: '20', paymentInterval: 'weekly' });
    const mover = await makeUser(app.deps.db);
    const moverId = await subscribeAt(clock, mover, tier.id);
    await (await clientAs(app, mover.id)).trpc.subscriptions.subscribe.mutate({ tierId: silver.id, idempotencyKey: randomUUID(), confirmedAmount: '20.00' });
    await app.deps.db.deleteFrom('subscription_tiers').where('id', '=', silver.id).execute();

    const before = await failuresCounted('renew');
    clock.set(end);
    const run = await billingMaintenance({ ...app.deps, clock, payments: throwingFor(exploding.id) });

    // everyone else: renewed, ended, lapsed
    expect(run).toMatchObject({ expired: 2 });
    expect((await subscription(renewsId)).current_period_end).toEqual(new Date(end.getTime() + WEEK));
    expect(await succeededPayments(renews.id)).toBe(2);
    expect((await subscription(keyedId)).current_period_end).toEqual(new Date(end.getTime() + WEEK));
    expect((await subscription(archivedId)).current_period_end).toEqual(new Date(end.getTime() + WEEK));
    expect(await subscription(moverId)).toMatchObject({ tier_id: tier.id, current_period_end: new Date(end.getTime() + WEEK) });
    expect((await subscription(cancelsId)).status).toBe('expired');
    expect((await subscription(premiumId)).status).toBe('expired');
    expect((await app.deps.db.selectFrom('profiles').select('is_premium').where('id', '=', premiumFan.id).executeTakeFirstOrThrow()).is_premium).toBe(false);

    // the two that failed: nothing written for them, counted in /metrics, set aside for a while
    expect(run.failures).toBe(2);
    expect(await failuresCounted('renew')).toBe(before + 2);
    for (const id of [explodingId, refusedId]) expect((await subscription(id)).current_period_end).toEqual(end);
    expect(await succeededPayments(exploding.id)).toBe(1);
    expect(await setAside(explodingId)).toMatchObject({ step: 'renew', failures: 1, retry_at: new Date(end.getTime() + RETRY_AFTER_FAILURE_MS) });

    // the next run leaves them alone; once their wait is over and the cause gone, they renew
    expect(await billingMaintenance({ ...app.deps, clock, payments: throwingFor(exploding.id) })).toMatchObject({ renewed: 0, failures: 0 });
    clock.set(new Date(end.getTime() + RETRY_AFTER_FAILURE_MS));
    expect(await billingMaintenance({ ...app.deps, clock, payments: builtinProvider })).toMatchObject({ renewed: 1, failures: 1 });
    expect((await subscription(explodingId)).current_period_end).toEqual(new Date(end.getTime() + WEEK));
    expect(await setAside(explodingId)).toBeUndefined();
  });

  it('a subscription that always fails does not sort first forever: the others are reached, and never-failed rows come first', async () => {
    const { tier } = await creatorWithTier();
    const clock = fixedClock(T0);
    const poisoned = await makeUser(app.deps.db);
    const poisonedId = await subscribeAt(clock, poisoned, tier.id);
    clock.advance(60_000);
    const other = await makeUser(app.deps.db);
    const otherId = await subscribeAt(clock, other, tier.id);
    clock.advance(60_000);
    const late = await makeUser(app.deps.db);
    const lateId = await subscribeAt(clock, late, tier.id);

    // one row per run: the poisoned row is due first
    const at = new Date(T0.getTime() + WEEK + 5 * 60_000);
    clock.set(at);
    const provider = throwingFor(poisoned.id);
    const one = { db: app.deps.db, provider, clock, batchSize: 1, earnings: DEFAULT_EARNINGS_POLICY };
    expect(await runBillingMaintenance(one)).toMatchObject({ renewed: 0, failures: [expect.objectContaining({ subscriptionId: poisonedId, step: 'renew' })] });
    expect(await runBillingMaintenance(one)).toMatchObject({ renewed: 1, failures: [] });
    expect((await subscription(otherId)).current_period_end).toEqual(new Date(T0.getTime() + 60_000 + 2 * WEEK));

    // after its wait the poisoned row may be tried again, but a row that never failed goes first
    clock.set(new Date(at.getTime() + RETRY_AFTER_FAILURE_MS));
    expect(await runBillingMaintenance(one)).toMatchObject({ renewed: 1, failures: [] });
    expect((await subscription(lateId)).current_period_end).toEqual(new Date(T0.getTime() + 120_000 + 2 * WEEK));
    expect(await runBillingMaintenance(one)).toMatchObject({ renewed: 0, failures: [expect.objectContaining({ subscriptionId: poisonedId })] });
  });
});

describe('clients’ idempotency keys', () => {
  it('are UUIDs only: a key in the renewal key’s format (or any other string) is a clear 400 and charges nothing', async () => {
    const { tier } = await creatorWithTier();
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const premiumTier = await app.deps.db.selectFrom('subscription_tiers').select('id').where('creator_id', 'is', null).where('name', '=', 'Premium').executeTakeFirstOrThrow();
    for (const key of [`renewal-${randomUUID()}-${Date.now()}`, 'failed-renewal-0123456789abcdef', 'x'.repeat(40)]) {
      for (const call of [
        () => asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: key, confirmedAmount: '40.00' }),
        () => asFan.trpc.subscriptions.upgradePremium.mutate({ tierId: premiumTier.id, idempotencyKey: key, confirmedAmount: '150.00' }),
      ]) {
        const error = await expectTrpcError(call(), 'BAD_REQUEST');
        expect((error.data as unknown as { validation: { fieldErrors: Record<string, string[]> } }).validation.fieldErrors.idempotencyKey).toEqual([
          BILLING_TEXTS.requestKeyInvalid,
        ]);
      }
    }
    expect(await app.deps.db.selectFrom('payments').select('id').where('user_id', '=', fan.id).execute()).toEqual([]);
    // a UUID goes through
    expect((await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' })).kind).toBe('subscribed');
  });
});
