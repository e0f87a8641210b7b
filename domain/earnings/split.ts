import { moneyOfCents, percentOf, toCents } from '../../common/money';
import type { DB } from '../../core/db/kysely';
import { DAY_MS } from '../billing/periods';
import type { EarningsPolicy } from './policy';

/** The platform's fee of a creator's charge: the percent of it, rounded half up to the cent. */
export function platformFee(totalCents: number, feePercent: number): number {
  return percentOf(moneyOfCents(totalCents), feePercent).cents;
}

/**
 * The creator's part of `reversedCents` of a charge of `chargeCents` whose earning was
 * `earningCents`: in proportion, rounded half up away from zero.
 */
function creatorShare(reversedCents: number, chargeCents: number, earningCents: number): number {
  if (chargeCents === 0) return 0;
  const sign = reversedCents < 0 ? -1 : 1;
  return sign * Math.floor((2 * Math.abs(reversedCents) * earningCents + chargeCents) / (2 * chargeCents));
}

/**
 * The creator's part of one reversal, taken as the share of everything reversed so far less the
 * share of what was reversed before it: partial refunds that add up to the charge take back
 * exactly the earning, never a cent more or less.
 */
export function reversalCreatorPart(r: { chargeCents: number; earningCents: number; reversedBeforeCents: number; reversalCents: number }): number {
  return (
    creatorShare(r.reversedBeforeCents + r.reversalCents, r.chargeCents, r.earningCents) -
    creatorShare(r.reversedBeforeCents, r.chargeCents, r.earningCents)
  );
}

/**
 * Why the platform bears a 'loss' row (ledger_entries.reason): a creator share it cannot take from
 * (or give back to) a creator whose account is gone, and a balance below zero left by a creator
 * who deleted the account. Never a row with no owner.
 */
export const LOSS_REASONS = {
  creatorGone: 'creator account deleted: the platform bears the creator share of this refund or dispute',
  negativeAtDeletion: 'creator account deleted with a balance below zero (refunds and disputes beyond the earnings left)',
} as const;

type Entry = {
  account: 'platform' | 'creator'; creator_id: string | null; kind: 'charge' | 'reversal' | 'loss'; payment_id: string; amount_cents: number;
  available_at: Date; created_at: Date; reason?: string;
};

/**
 * The earnings ledger's one entry point for money that came in or went back (docs/payments.md,
 * "Earnings and payouts"). Called with the ids of payment rows just written, in the transaction
 * that wrote them (`insertPayment` and `recordReversal` are the only writers of payments and both
 * call it), so every charge kind, now and later, is split the moment it exists:
 *   - a succeeded charge for a creator: the platform's fee (`feePercent`) and the creator's
 *     earning, pending until `holdDays` after the charge;
 *   - a charge for the platform (Premium): all of it the platform's;
 *   - a reversal (refund, dispute, dispute won): both sides in proportion to its charge's split;
 *     the creator's part counts from now, or from when the charge's earning becomes available if
 *     that is later (a refund of a pending earning nets out inside pending).
 * Failed charges move no money and split into nothing. Each payment splits once (a unique index
 * on payment and account), so a repeat writes nothing. The parts of a payment add up to its amount.
 */
export async function splitPayments(trx: DB, paymentIds: readonly string[], policy?: Pick<EarningsPolicy, 'feePercent' | 'holdDays'>): Promise<void> {
  if (paymentIds.length === 0) return;
  const rows = await trx
    .selectFrom('payments as p')
    .leftJoin('payments as c', 'c.id', 'p.reverses_payment_id')
    .leftJoin('ledger_entries as e', (j) => j.onRef('e.payment_id', '=', 'c.id').on('e.account', '=', 'creator').on('e.kind', '=', 'charge'))
    // the creator share taken when this refund was decided (takeRefundShare), not yet any payment's
    .leftJoin('refund_requests as rq', 'rq.reversal_key', 'p.system_key')
    .leftJoin('ledger_entries as h', (j) => j.onRef('h.refund_request_id', '=', 'rq.id').on('h.amount_cents', '<=', '0').on('h.payment_id', 'is', null))
    .select((eb) => [
      'p.id', 'p.kind', 'p.status', 'p.amount', 'p.creator_id', 'p.created_at', 'p.reverses_payment_id',
      'c.amount as charge_amount', 'e.creator_id as earning_creator_id', 'e.amount_cents as earning_cents', 'e.available_at as earning_available_at',
      'h.id as taken_id', 'h.amount_cents as taken_cents',
      eb
        .selectFrom('payments as b')
        .select((b) => b.fn.coalesce(b.fn.sum<string>('b.amount'), b.val('0')).as('s'))
        .whereRef('b.reverses_payment_id', '=', 'p.reverses_payment_id')
        .where('b.status', '=', 'succeeded')
        .where((w) => w.or([w('b.created_at', '<', w.ref('p.created_at')), w.and([w('b.created_at', '=', w.ref('p.created_at')), w('b.id', '<', w.ref('p.id'))])]))
        .as('reversed_before'),
      // refunds decided and not yet made count as reversed before this one (their shares are taken)
      eb
        .selectFrom('refund_requests as q')
        .select((b) => b.fn.coalesce(b.fn.sum<string>('q.amount'), b.val('0')).as('s'))
        .whereRef('q.payment_id', '=', 'p.reverses_payment_id')
        .where('q.completed_at', 'is', null)
        .where((w) => w.or([w('p.system_key', 'is', null), w('q.reversal_key', '<>', w.ref('p.system_key'))]))
        .as('pending_before'),
    ])
    .where('p.id', 'in', paymentIds)
    .where('p.status', '=', 'succeeded')
    .orderBy('p.created_at')
    .execute();
  const entries: Entry[] = [];
  const takenOver: { id: string; paymentId: string }[] = [];
  for (const p of rows) {
    const total = toCents(p.amount);
    if (p.kind === 'charge') {
      // a reversal follows its charge's split; only a charge needs the settings
      if (!policy) throw new Error(`payment ${p.id} is a charge: its split needs the fee and hold settings`);
      const fee = p.creator_id === null ? total : platformFee(total, policy.feePercent);
      entries.push({ account: 'platform', creator_id: null, kind: 'charge', payment_id: p.id, amount_cents: fee, available_at: p.created_at, created_at: p.created_at });
      if (p.creator_id !== null) {
        const availableAt = new Date(p.created_at.getTime() + policy.holdDays * DAY_MS);
        entries.push({ account: 'creator', creator_id: p.creator_id, kind: 'charge', payment_id: p.id, amount_cents: total - fee, available_at: availableAt, created_at: p.created_at });
      }
      continue;
    }
    if (p.taken_id !== null && p.taken_cents !== null) {
      // decided earlier: its creator share is on the books already; this payment takes that row over
      const taken = Number(p.taken_cents);
      entries.push({ account: 'platform', creator_id: null, kind: 'reversal', payment_id: p.id, amount_cents: total - taken, available_at: p.created_at, created_at: p.created_at });
      takenOver.push({ id: p.taken_id, paymentId: p.id });
      continue;
    }
    const earning = p.earning_cents === null ? 0 : Number(p.earning_cents);
    const reversedBeforeCents = toCents(String(p.reversed_before ?? '0')) - toCents(String(p.pending_before ?? '0'));
    const creatorPart =
      p.earning_cents === null || p.charge_amount === null
        ? 0
        : reversalCreatorPart({ chargeCents: toCents(p.charge_amount), earningCents: earning, reversedBeforeCents, reversalCents: total });
    entries.push({ account: 'platform', creator_id: null, kind: 'reversal', payment_id: p.id, amount_cents: total - creatorPart, available_at: p.created_at, created_at: p.created_at });
    if (p.earning_cents !== null && p.earning_creator_id === null) {
      // the creator's account is gone: the platform bears their share, on a row that says so
      if (creatorPart !== 0) {
        entries.push({ account: 'platform', creator_id: null, kind: 'loss', payment_id: p.id, amount_cents: creatorPart, available_at: p.created_at, created_at: p.created_at, reason: LOSS_REASONS.creatorGone });
      }
    } else if (p.earning_cents !== null) {
      const held = p.earning_available_at && p.earning_available_at > p.created_at ? p.earning_available_at : p.created_at;
      entries.push({ account: 'creator', creator_id: p.earning_creator_id, kind: 'reversal', payment_id: p.id, amount_cents: creatorPart, available_at: held, created_at: p.created_at });
    }
  }
  if (entries.length > 0) {
    await trx
      .insertInto('ledger_entries')
      .values(entries.map((e) => ({ ...e, reason: e.reason ?? null })))
      .onConflict((oc) => oc.columns(['payment_id', 'account', 'kind']).where('payment_id', 'is not', null).doNothing())
      .execute();
  }
  for (const t of takenOver) {
    await trx.updateTable('ledger_entries').set({ payment_id: t.paymentId }).where('id', '=', t.id).where('payment_id', 'is', null).execute();
  }
}

/**
 * A refund decided (docs/payments.md, "Refunds are decided before they are made"): in the
 * transaction that wrote its refund_requests row, under the charge's lock, the creator's share of
 * it comes off their balance now, not when the provider confirms, so no payout decided later can
 * pay it out. The share is the one the refund will have (everything reversed or decided before it
 * counted, as splitPayments does); it counts from now, or from when the charge's earning becomes
 * available if that is later. A creator whose account is gone: the platform's 'loss' row, with
 * its reason. When the refund is made its payment row takes this row over (splitPayments).
 * Returns the creator's part (cents, ≤ 0).
 */
export async function takeRefundShare(trx: DB, r: { requestId: string; chargeId: string; amountCents: number; now: Date }): Promise<number> {
  const row = await trx
    .selectFrom('payments as c')
    .leftJoin('ledger_entries as e', (j) => j.onRef('e.payment_id', '=', 'c.id').on('e.account', '=', 'creator').on('e.kind', '=', 'charge'))
    .select((eb) => [
      'c.amount', 'e.id as earning_id', 'e.creator_id', 'e.amount_cents as earning_cents', 'e.available_at',
      eb
        .selectFrom('payments as b')
        .select((b) => b.fn.coalesce(b.fn.sum<string>('b.amount'), b.val('0')).as('s'))
        .whereRef('b.reverses_payment_id', '=', 'c.id')
        .where('b.status', '=', 'succeeded')
        .as('settled'),
      eb
        .selectFrom('refund_requests as q')
        .select((b) => b.fn.coalesce(b.fn.sum<string>('q.amount'), b.val('0')).as('s'))
        .whereRef('q.payment_id', '=', 'c.id')
        .where('q.completed_at', 'is', null)
        .where('q.id', '<>', r.requestId)
        .as('pending'),
    ])
    .where('c.id', '=', r.chargeId)
    .executeTakeFirstOrThrow();
  if (row.earning_id === null || row.earning_cents === null) return 0;
  const share = reversalCreatorPart({
    chargeCents: toCents(row.amount),
    earningCents: Number(row.earning_cents),
    reversedBeforeCents: toCents(String(row.settled ?? '0')) - toCents(String(row.pending ?? '0')),
    reversalCents: -r.amountCents,
  });
  const held = row.available_at && row.available_at > r.now ? row.available_at : r.now;
  await trx
    .insertInto('ledger_entries')
    .values(
      row.creator_id === null
        ? { account: 'platform', creator_id: null, kind: 'loss', reason: LOSS_REASONS.creatorGone, refund_request_id: r.requestId, amount_cents: share, available_at: r.now, created_at: r.now }
        : { account: 'creator', creator_id: row.creator_id, kind: 'reversal', refund_request_id: r.requestId, amount_cents: share, available_at: held, created_at: r.now },
    )
    .execute();
  return share;
}

/**
 * A decided refund that will not be made (the charge was refunded elsewhere meanwhile, so the
 * provider has nothing left for it): the share taken for it is given back, once.
 */
export async function giveBackRefundShare(trx: DB, requestId: string, now: Date): Promise<void> {
  const taken = await trx
    .selectFrom('ledger_entries')
    .select(['account', 'creator_id', 'kind', 'reason', 'amount_cents', 'available_at'])
    .where('refund_request_id', '=', requestId)
    .where('amount_cents', '<=', '0')
    .where('payment_id', 'is', null)
    .executeTakeFirst();
  if (!taken || Number(taken.amount_cents) === 0) return;
  const given = await trx.selectFrom('ledger_entries').select('id').where('refund_request_id', '=', requestId).where('amount_cents', '>', '0').executeTakeFirst();
  if (given) return;
  await trx
    .insertInto('ledger_entries')
    .values({
      account: taken.account, creator_id: taken.creator_id, kind: taken.kind, reason: taken.reason, refund_request_id: requestId,
      amount_cents: -Number(taken.amount_cents), available_at: taken.available_at > now ? taken.available_at : now, created_at: now,
    })
    .execute();
}
