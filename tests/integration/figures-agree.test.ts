import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { statementCsv } from '../../common/earnings';
import { fromCents, toCents } from '../../common/money';
import { insertPayment } from '../../domain/billing/billing.queries';
import { decideRefund } from '../../domain/billing/refunds';
import { recordReversal } from '../../domain/billing/reversals';
import { periodStarts } from '../../domain/earnings/figures';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';
import { makeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clientAs } from '../helpers/trpc';

/**
 * Issue 47 item 4, figures that agree: for random histories this week (charges of a tier and tips,
 * refunds decided and made at the provider, disputes won and lost), everything a creator sees
 * says the same net earnings: the Tiers tab's "This month" and this week's bar, the Earnings
 * screen's net earnings, this month's and this week's points of its chart, the monthly
 * statement's net and its CSV; and the statement's gross is what fans paid, its fee the rest.
 */
const app = useFileServer({ emptyUsers: true });

const event = fc.oneof(
  fc.record({ t: fc.constant('charge' as const), cents: fc.integer({ min: 100, max: 60_000 }), tip: fc.boolean() }),
  fc.record({ t: fc.constant('refund' as const), of: fc.nat(), part: fc.integer({ min: 1, max: 100 }), atProvider: fc.boolean() }),
  fc.record({ t: fc.constant('dispute' as const), of: fc.nat(), won: fc.boolean() }),
);

describe('a creator\'s figures', () => {
  it('agree on every screen for a random history', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { minLength: 1, maxLength: 12 }), async (events) => {
        const db = app.deps.db;
        const creator = await makeUser(db, { isCreator: true });
        const fan = await makeUser(db);
        const tier = await db.insertInto('subscription_tiers').values({ creator_id: creator.id, name: 'Gold', price_cents: 100_00, payment_interval: 'monthly' }).returning('id').executeTakeFirstOrThrow();
        const now = new Date();
        // all of it this week and this month: from the later of their starts
        const since = Math.max(periodStarts(now, 'week', 1)[0]!.getTime(), periodStarts(now, 'month', 1)[0]!.getTime());
        const at = (i: number) => new Date(Math.max(since, now.getTime() - 60_000) + i);
        const charges: { id: string; cents: number }[] = [];
        let paid = 0;
        for (const [i, e] of events.entries()) {
          const when = at(i);
          if (e.t === 'charge') {
            const id = await db.transaction().execute((trx) =>
              insertPayment(trx, {
                userId: fan.id, tierId: e.tip ? null : tier.id, creatorId: creator.id, subscriptionId: null, description: e.tip ? 'Tip' : 'Gold',
                idempotencyKey: randomUUID(), amountCents: e.cents, provider: 'builtin', providerRef: null, status: 'succeeded', createdAt: when,
                earnings: DEFAULT_EARNINGS_POLICY, ...(e.tip ? { tip: { message: null } } : {}),
              }),
            );
            charges.push({ id, cents: e.cents });
            paid += e.cents;
            continue;
          }
          const charge = charges[e.of % Math.max(1, charges.length)];
          if (!charge) continue;
          if (e.t === 'refund') {
            const cents = Math.max(1, Math.floor((charge.cents * e.part) / 100));
            if (e.atProvider) {
              await db.transaction().execute((trx) => recordReversal(trx, { paymentId: charge.id, kind: 'refund', amountCents: cents, providerRef: null, systemKey: `r-${randomUUID()}`, now: when }));
            } else {
              await db.transaction().execute((trx) => decideRefund(trx, { paymentId: charge.id, amountCents: cents, systemKey: `d-${randomUUID()}`, now: when }));
            }
          } else {
            await db.transaction().execute((trx) => recordReversal(trx, { paymentId: charge.id, kind: 'dispute', amountCents: charge.cents, providerRef: null, systemKey: `x-${randomUUID()}`, now: when }));
            if (e.won) await db.transaction().execute((trx) => recordReversal(trx, { paymentId: charge.id, kind: 'dispute_won', amountCents: charge.cents, providerRef: null, systemKey: `w-${randomUUID()}`, now: when }));
          }
        }

        const as = await clientAs(app, creator.id);
        const month = now.toISOString().slice(0, 7);
        const [tiersTab, summary, byMonth, byWeek, statement] = await Promise.all([
          as.trpc.creatorStats.earnings.query(),
          as.trpc.earnings.summary.query(),
          as.trpc.earnings.chart.query({ by: 'month' }),
          as.trpc.earnings.chart.query({ by: 'week' }),
          as.trpc.earnings.statement.query({ month }),
        ]);
        const net = summary.netEarnings;
        expect(tiersTab.thisMonth, 'Tiers tab, this month').toBe(net);
        expect(tiersTab.weekly.at(-1)!.total, 'Tiers tab, this week').toBe(net);
        expect(byMonth.points.at(-1)!.net, 'chart, this month').toBe(net);
        expect(byWeek.points.at(-1)!.net, 'chart, this week').toBe(net);
        expect(statement.net, 'statement').toBe(net);
        const csvNet = statementCsv(statement).split('\r\n').find((l) => l.startsWith('"Net",'));
        expect(csvNet, 'CSV').toBe(`"Net","${net}"`);
        expect(statement.gross, 'gross is what fans paid').toBe(fromCents(paid));
        expect(toCents(statement.gross) + toCents(statement.platformFee) + toCents(statement.refunds) + toCents(statement.chargebacks)).toBe(toCents(net));
        const lines = statement.lines.filter((l) => !l.type.startsWith('Payout')).reduce((t, l) => t + toCents(l.net), 0);
        expect(fromCents(lines), 'the statement lines add up to its net').toBe(net);
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
