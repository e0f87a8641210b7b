import { isCreator, linesAround, paymentShares, sumCredit } from '../helpers/ledger';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinProvider } from '../../core/payments/builtin';
import type { PaymentProvider } from '../../core/payments/provider';
import { endSubscriptionsOfDeletedUser } from '../../domain/billing/account-deletion';
import { requestRefund } from '../../domain/billing/admin-refund';
import { insertPayment } from '../../domain/billing/billing.queries';
import { DAY_MS } from '../../domain/billing/periods';
import { carryOutRefund, type RefundRequest } from '../../domain/billing/refunds';
import { recordSubscription } from '../../domain/subscriptions/write';
import { makeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';

/**
 * Issue 45 item 3: every refund of a charge is decided under the charge's lock, with its amount
 * reserved (refund_requests) and fixed when queued. Two refund paths of one charge (an admin's
 * refund and a deleting creator's pro rata refund of the fan) decided at once, then carried out
 * at once, never add up to more than the charge, nor take more than the earning back from the
 * creator; a refund job retried after a provider error sends the amount decided, not one
 * recomputed from what is left then. Real PostgreSQL; the jobs are run by hand.
 */
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ workerQueues: ['mail'] });
});
afterAll(async () => {
  await app?.close();
});

/** A creator's fan on a R99.00 30-day period, 10 days of it used, paid through a provider that refunds by reference. */
async function paidFan() {
  const db = app.deps.db;
  const creator = await makeUser(db, { isCreator: true });
  const fan = await makeUser(db);
  const admin = await makeUser(db);
  const tier = await db.insertInto('subscription_tiers').values({ creator_id: creator.id, name: 'Gold', price_cents: 99_00, payment_interval: 'monthly' }).returning('id').executeTakeFirstOrThrow();
  const start = new Date(Date.now() - 10 * DAY_MS);
  const periodEnd = new Date(start.getTime() + 30 * DAY_MS);
  const subscriptionId = await recordSubscription(db, {
    subscriberId: fan.id, tierId: tier.id, status: 'active', periodStart: start, periodEnd, provider: 'builtin', providerSubscriptionId: null, createdAt: start,
  });
  const chargeId = await db.transaction().execute((trx) =>
    insertPayment(trx, {
      userId: fan.id, tierId: tier.id, creatorId: creator.id, subscriptionId, description: 'Creator — Gold', idempotencyKey: randomUUID(), amountCents: 99_00,
      provider: 'builtin', providerRef: `ref_${randomUUID()}`, status: 'succeeded', createdAt: start, earnings: DEFAULT_EARNINGS_POLICY,
    }),
  );
  const earning = (await paymentShares(db, chargeId)).creator!;
  return { creator, admin, chargeId, earning, proRataKey: `prorata-refund-${subscriptionId}-${periodEnd.getTime()}` };
}

const adminRefund = (admin: string, paymentId: string, amountCents: number, key = randomUUID()) =>
  requestRefund({ db: app.deps.db, reachable: () => true, clock: app.deps.clock }, { adminId: admin, paymentId, amountCents, idempotencyKey: key });
const deleteCreatorData = (creatorId: string) =>
  app.deps.db.transaction().execute((trx) => endSubscriptionsOfDeletedUser(trx, creatorId, app.deps.clock.now(), { accountGoes: false }));
const jobData = async (systemKey: string) =>
  (await app.deps.db.selectFrom('outbox').select('data').where('job_id', '=', `provider-refund-${systemKey}`).executeTakeFirstOrThrow()).data as unknown as RefundRequest;
const runJob = (provider: PaymentProvider, data: RefundRequest) => carryOutRefund({ db: app.deps.db, providerFor: () => provider, clock: app.deps.clock }, data);

/** The charge's refunds recorded (cents) and what the ledger took back from the creator for refunds (decided, made at the provider, or undone). */
async function refundsOf(chargeId: string) {
  const db = app.deps.db;
  const refunds = await db.selectFrom('payments').select(['id', 'amount_cents']).where('reverses_payment_id', '=', chargeId).where('kind', '=', 'refund').execute();
  const lines = await linesAround(db, chargeId);
  return {
    refunded: refunds.reduce((t, r) => t - Number(r.amount_cents), 0),
    creatorTaken: -sumCredit(lines, (l) => isCreator(l) && l.journal.startsWith('refund')),
  };
}

describe('refunds of one charge', () => {
  it('an admin refund and a pro rata refund decided and carried out at once never pass the charge, nor the earning', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await paidFan();
      const adminKey = randomUUID();
      const decided = await Promise.allSettled([adminRefund(s.admin.id, s.chargeId, 50_00, adminKey), deleteCreatorData(s.creator.id)]);
      expect(decided[1].status).toBe('fulfilled');
      // whichever came second was decided against what the first left (or refused: the admin is told how much is left)
      if (decided[0].status === 'rejected') expect(String(decided[0].reason)).toMatch(/at most R36\.30/);

      // both jobs at once: a provider that answers only when both have asked (or after a moment)
      let waiting: (() => void)[] = [];
      const together: PaymentProvider = {
        ...builtinProvider,
        async refund() {
          await new Promise<void>((resolve) => {
            waiting.push(resolve);
            if (waiting.length === 2) waiting.forEach((w) => w());
            setTimeout(resolve, 300);
          });
          return { ref: null };
        },
      };
      const jobs = [await jobData(s.proRataKey)];
      if (decided[0].status === 'fulfilled') jobs.push(await jobData(`admin-refund-${adminKey}`));
      await Promise.all(jobs.map((d) => runJob(together, d)));
      waiting = [];

      const { refunded, creatorTaken } = await refundsOf(s.chargeId);
      expect(refunded).toBeGreaterThan(0);
      expect(refunded, `round ${round}: refunds of a R99.00 charge`).toBeLessThanOrEqual(99_00);
      expect(creatorTaken, `round ${round}: taken back from an earning of ${s.earning}`).toBeLessThanOrEqual(s.earning);
      // nothing is left pending: each decided refund was made
      expect(await app.deps.db.selectFrom('refund_requests').select('id').where('payment_id', '=', s.chargeId).where('completed_at', 'is', null).execute()).toEqual([]);
    }
  });

  it('a refund job retried after a provider error sends the amount decided when it was queued, under the same key', async () => {
    const s = await paidFan();
    await deleteCreatorData(s.creator.id);
    const data = await jobData(s.proRataKey);
    // 20 days were left (19 whole ones by the time it ran): 99.00 × 19/30
    expect(data.amountCents).toBe(62_70);

    const asked: { amountCents?: number; idempotencyKey?: string }[] = [];
    let fail = true;
    const flaky: PaymentProvider = {
      ...builtinProvider,
      async refund(_ref, opts) {
        asked.push({ amountCents: opts?.amountCents, idempotencyKey: opts?.idempotencyKey });
        if (fail) throw new Error('provider unreachable (test)');
        return { ref: `re_${randomUUID()}` };
      },
    };
    await expect(runJob(flaky, data)).rejects.toThrow(/unreachable/);

    // meanwhile an admin asks for R50.00 (made at once when accepted)
    const tooMuchKey = randomUUID();
    const tooMuch = await adminRefund(s.admin.id, s.chargeId, 50_00, tooMuchKey).then(
      async () => `accepted: ${JSON.stringify(await runJob(builtinProvider, await jobData(`admin-refund-${tooMuchKey}`)))}`,
      (error: unknown) => String(error),
    );

    fail = false;
    expect(await runJob(flaky, data)).toMatchObject({ refundedCents: 62_70 });
    // the same amount on the retry as on the first try, under the same key (Stripe refuses a key reused with another amount)
    expect(asked).toEqual([
      { amountCents: 62_70, idempotencyKey: s.proRataKey },
      { amountCents: 62_70, idempotencyKey: s.proRataKey },
    ]);
    // the admin could only have what the pro rata refund left
    expect(tooMuch).toMatch(/at most R36\.30/);
    const restKey = randomUUID();
    await adminRefund(s.admin.id, s.chargeId, 36_30, restKey);
    expect(await runJob(builtinProvider, await jobData(`admin-refund-${restKey}`))).toMatchObject({ refundedCents: 36_30 });
    const { refunded, creatorTaken } = await refundsOf(s.chargeId);
    expect(refunded).toBe(99_00);
    // refunded in full: exactly the earning comes back off the creator
    expect(creatorTaken).toBe(s.earning);
  });
});
