import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { creatorBalances } from '../../domain/earnings/balances';
import { makeUser } from '../helpers/factories';
import { useStripeTestServer } from '../helpers/fake-stripe';
import { sendSigned, stripeEvent } from '../helpers/stripe-events';

/**
 * Open disputes on the books (issue 45; docs/payments.md, "The ledger"): Stripe's
 * charge.dispute.created and charge.dispute.closed (lost), signed, through the webhook. While the
 * dispute is open the ledger says how much the provider withholds (disputes_open) and that as much
 * is reserved against it (dispute_reserve), the creator's share already off their balance; once
 * lost it is no longer open, and a redelivered 'lost' (the same event, or the same dispute under
 * another event id) posts nothing more.
 */
const { app, fakeStripe } = useStripeTestServer();

/** The balance of the platform's accounts of each kind (cents, debit positive). */
async function books() {
  const rows = await sql<{ kind: string; cents: string }>`
    select a.kind, coalesce(sum(l.amount_cents), 0)::text as cents
    from ledger_accounts a left join journal_lines l on l.account_id = a.id
    where a.code is not null group by a.kind`.execute(app.deps.db);
  const by = Object.fromEntries(rows.rows.map((r) => [r.kind, Number(r.cents)]));
  return { cash: by.provider_cash ?? 0, disputesOpen: by.disputes_open ?? 0, disputeReserve: by.dispute_reserve ?? 0, revenue: 0 - (by.platform_revenue ?? 0) };
}

describe('a dispute lost, on the books', () => {
  it('is open (held and reserved) until lost, then closed once however often Stripe says so', async () => {
    const db = app.deps.db;
    const creator = await makeUser(db, { isCreator: true });
    const fan = await makeUser(db);
    const tier = await db
      .insertInto('subscription_tiers')
      .values({ creator_id: creator.id, name: 'Gold', price_cents: 50_00, payment_interval: 'monthly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const checkout = stripeEvent('evt_lost_checkout', 'checkout.session.completed', {
      id: 'cs_lost', object: 'checkout.session', subscription: 'sub_lost', invoice: 'in_lost', amount_total: 5000, payment_status: 'paid',
      metadata: { userId: fan.id, tierId: tier.id, idempotencyKey: 'key-lost-0123456789abcdef' },
    });
    expect((await sendSigned(app.url, checkout)).outcome).toBe('applied');
    const intent = fakeStripe.intentOf('in_lost');
    const dispute = (status: string) => ({ id: 'dp_lost', object: 'dispute', charge: 'ch_lost', payment_intent: intent, amount: 5000, status });
    const paid = await books();
    const earned = (await creatorBalances(db, creator.id, new Date())).net;
    expect(earned).toBe(40_00);

    expect((await sendSigned(app.url, stripeEvent('evt_lost_1', 'charge.dispute.created', dispute('needs_response')))).outcome).toBe('applied');
    const opened = await books();
    expect(opened.disputesOpen, 'R50 held by Stripe in an open dispute').toBe(50_00);
    expect(opened.disputeReserve, 'and R50 reserved against it').toBe(-50_00);
    expect(opened.cash, 'Stripe took the money').toBe(paid.cash - 50_00);
    expect(opened.revenue, "the platform's fee taken back").toBe(paid.revenue - 10_00);
    expect((await creatorBalances(db, creator.id, new Date())).net, "the creator's share came off when it opened").toBe(0);

    const lost = stripeEvent('evt_lost_2', 'charge.dispute.closed', dispute('lost'));
    expect((await sendSigned(app.url, lost)).outcome).toBe('applied');
    const closed = await books();
    expect(closed).toEqual({ ...opened, disputesOpen: 0, disputeReserve: 0 });

    // Stripe redelivers the event, and reports the same dispute lost under another event id
    expect((await sendSigned(app.url, lost)).outcome).toBe('duplicate');
    expect((await sendSigned(app.url, stripeEvent('evt_lost_3', 'charge.dispute.closed', dispute('lost')))).outcome).toBe('applied');
    expect(await books()).toEqual(closed);
    expect((await creatorBalances(db, creator.id, new Date())).net).toBe(0);
    const journals = await db.selectFrom('journal_entries').select('kind').where('kind', 'in', ['dispute_opened', 'dispute_lost']).execute();
    expect(journals.map((j) => j.kind).sort()).toEqual(['dispute_lost', 'dispute_opened']);
  });
});
