import { sql } from 'kysely';
import { moneyOfCents, percentOf } from '../../common/money';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { DAY_MS } from '../billing/periods';
import { accountOf, creatorAvailable, creatorPending, disputeReserve, disputesOpen, losses, platformRevenue, providerCash, refundsOwed } from '../ledger/accounts';
import { postJournal, postJournals, type JournalInput, type LineInput } from '../ledger/post';
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
 * Why the platform books a loss (the journal's reason): a creator share it cannot take from (or
 * give back to) a creator whose account is gone, and a balance below zero left by a creator who
 * deleted the account. Never money on an account with no owner.
 */
export const LOSS_REASONS = {
  creatorGone: 'creator account deleted: the platform bears the creator share of this refund or dispute',
  negativeAtDeletion: 'creator account deleted with a balance below zero (refunds and disputes beyond the earnings left)',
  payoutReturnedToNoOne: 'creator account deleted: a payout to it was refused and there is no one to pay it to (a negative loss)',
} as const;

type PaymentKind = 'charge' | 'refund' | 'dispute' | 'dispute_won';
const REVERSAL_JOURNAL = { refund: 'refund', dispute: 'dispute_opened', dispute_won: 'dispute_won' } as const;

/** A payment's own journal: posted once, whatever calls for it again. */
export const paymentJournalKey = (paymentId: string) => `payment-${paymentId}`;
export const refundDecidedKey = (requestId: string) => `refund-decided-${requestId}`;
const refundNotMadeKey = (requestId: string) => `refund-not-made-${requestId}`;

interface Earning {
  /** the creator's earning of the charge (cents, ≥ 0) */
  cents: number;
  /** null: the creator's account is gone */
  ownerId: string | null;
  availableAt: Date;
  /** what the creator's pending account still holds for the earning's date (cents): zero once released */
  heldCents: number;
}

/** The creator's earning of each charge, from the charge's journal (its pending line). */
async function earningsOfCharges(trx: DB, chargeIds: readonly string[]): Promise<Map<string, Earning>> {
  if (chargeIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('journal_entries as j')
    .innerJoin('journal_lines as l', 'l.journal_id', 'j.id')
    .innerJoin('ledger_accounts as a', 'a.id', 'l.account_id')
    .select([
      'j.payment_id', 'l.amount_cents', 'l.available_at', 'a.owner_id',
      sql<string>`(select coalesce(-sum(h.amount_cents), 0) from journal_lines h where h.account_id = l.account_id and h.available_at = l.available_at)`.as('held'),
    ])
    .where('j.payment_id', 'in', chargeIds)
    .where('j.kind', '=', 'charge')
    .where('a.kind', '=', 'creator_pending')
    .execute();
  return new Map(
    rows.map((r) => [r.payment_id!, { cents: -readCents(r.amount_cents), ownerId: r.owner_id, availableAt: r.available_at ?? new Date(0), heldCents: readCents(r.held) }]),
  );
}

/**
 * The lines that take `creatorPart` (cents, signed as the reversal: negative takes back) of an
 * earning: from pending while the earning is still held there (it nets out inside pending), else
 * from available (its hold over, or released); the platform's loss, with its reason, when the creator's account is gone.
 */
function creatorSide(earning: Earning, creatorPart: number, at: Date): LineInput {
  if (earning.ownerId === null) return { account: losses, cents: -creatorPart };
  return earning.availableAt > at && earning.heldCents > 0
    ? { account: creatorPending(earning.ownerId), cents: -creatorPart, availableAt: earning.availableAt }
    : { account: creatorAvailable(earning.ownerId), cents: -creatorPart };
}

/** The memo pair of open disputes: `cents` more held by providers (negative: less), and as much reserved against it. */
export function disputeHeld(cents: number): LineInput[] {
  return [{ account: disputesOpen, cents }, { account: disputeReserve, cents: -cents }];
}

/**
 * The ledger's entry point for money that came in or went back (docs/payments.md, "The ledger").
 * Called with the ids of payment rows just written, in the transaction that wrote them
 * (`insertPayment` and `recordReversal` are the only writers of payments and both call it), so
 * every payment is on the books the moment it exists:
 *   - a succeeded charge for a creator ('charge'): the provider holds the money; the platform's fee
 *     (`feePercent`) is its revenue, the rest the creator's earning, pending until `holdDays` later;
 *   - a charge for the platform (Premium): all of it revenue;
 *   - a refund decided earlier (its refund_requests row): 'refund_settled', the refund owed is paid
 *     out of the provider's money (the creator's share came off when it was decided);
 *   - any other reversal ('refund' made at the provider, 'dispute_opened', 'dispute_won'): both
 *     sides in proportion to its charge's split; a dispute's amount also becomes open (held by the
 *     provider, reserved against), and a dispute won closes as much (a dispute lost:
 *     ./disputes.ts).
 * Failed charges move no money. Each payment posts one journal (its key), so a repeat writes nothing.
 */
export async function splitPayments(trx: DB, paymentIds: readonly string[], policy?: Pick<EarningsPolicy, 'feePercent' | 'holdDays'>): Promise<void> {
  if (paymentIds.length === 0) return;
  const rows = await trx
    .selectFrom('payments as p')
    .leftJoin('payments as c', 'c.id', 'p.reverses_payment_id')
    .leftJoin('refund_requests as rq', 'rq.reversal_key', 'p.system_key')
    .select((eb) => [
      'p.id', 'p.kind', 'p.amount_cents', 'p.creator_id', 'p.created_at', 'p.reverses_payment_id', 'p.provider',
      'c.amount_cents as charge_cents', 'rq.id as request_id',
      eb
        .selectFrom('payments as b')
        .select((b) => b.fn.coalesce(b.fn.sum<string>('b.amount_cents'), b.val('0')).as('s'))
        .whereRef('b.reverses_payment_id', '=', 'p.reverses_payment_id')
        .where('b.status', '=', 'succeeded')
        .where((w) => w.or([w('b.created_at', '<', w.ref('p.created_at')), w.and([w('b.created_at', '=', w.ref('p.created_at')), w('b.id', '<', w.ref('p.id'))])]))
        .as('reversed_before'),
      // refunds decided and not yet made count as reversed before this one (their shares are taken)
      eb
        .selectFrom('refund_requests as q')
        .select((b) => b.fn.coalesce(b.fn.sum<string>('q.amount_cents'), b.val('0')).as('s'))
        .whereRef('q.payment_id', '=', 'p.reverses_payment_id')
        .where('q.completed_at', 'is', null)
        .where((w) => w.or([w('p.system_key', 'is', null), w('q.reversal_key', '<>', w.ref('p.system_key'))]))
        .as('pending_before'),
    ])
    .where('p.id', 'in', paymentIds)
    .where('p.status', '=', 'succeeded')
    .orderBy('p.created_at')
    .execute();
  const requestIds = rows.flatMap((r) => (r.request_id ? [r.request_id] : []));
  const decided = new Map(
    requestIds.length === 0
      ? []
      : (
          await trx
            .selectFrom('journal_entries as j')
            .innerJoin('journal_lines as l', 'l.journal_id', 'j.id')
            .innerJoin('ledger_accounts as a', 'a.id', 'l.account_id')
            .select(['j.refund_request_id', 'l.amount_cents'])
            .where('j.refund_request_id', 'in', requestIds)
            .where('j.kind', '=', 'refund_decided')
            .where('a.kind', '=', 'refunds_owed')
            .where((eb) => eb.not(eb.exists(eb.selectFrom('journal_entries as n').select('n.id').whereRef('n.refund_request_id', '=', 'j.refund_request_id').where('n.kind', '=', 'refund_not_made'))))
            .execute()
        ).map((r) => [r.refund_request_id!, -readCents(r.amount_cents)]),
  );
  const earnings = await earningsOfCharges(trx, rows.flatMap((r) => (r.reverses_payment_id ? [r.reverses_payment_id] : [])));

  const journals: JournalInput[] = [];
  for (const p of rows) {
    const total = readCents(p.amount_cents);
    const cash = providerCash(p.provider);
    const base = { key: paymentJournalKey(p.id), at: p.created_at, paymentId: p.id };
    if (p.kind === 'charge') {
      // a reversal follows its charge's split; only a charge needs the settings
      if (!policy) throw new Error(`payment ${p.id} is a charge: its split needs the fee and hold settings`);
      const fee = p.creator_id === null ? total : platformFee(total, policy.feePercent);
      const lines: LineInput[] = [{ account: cash, cents: total }, { account: platformRevenue, cents: -fee }];
      if (p.creator_id !== null) {
        lines.push({ account: creatorPending(p.creator_id), cents: fee - total, availableAt: new Date(p.created_at.getTime() + policy.holdDays * DAY_MS) });
      }
      journals.push({ ...base, kind: 'charge', lines });
      continue;
    }
    const owed = p.request_id ? decided.get(p.request_id) : undefined;
    if (owed !== undefined) {
      // decided earlier: the creator's share is off their balance already; the refund owed is paid now
      journals.push({
        ...base, kind: 'refund_settled', refundRequestId: p.request_id!,
        lines: [{ account: refundsOwed, cents: owed }, { account: cash, cents: total }, { account: platformRevenue, cents: -(owed + total) }],
      });
      continue;
    }
    const earning = p.reverses_payment_id ? earnings.get(p.reverses_payment_id) : undefined;
    const reversedBeforeCents = readCents(p.reversed_before ?? '0') - readCents(p.pending_before ?? '0');
    const creatorPart =
      !earning || p.charge_cents === null
        ? 0
        : reversalCreatorPart({ chargeCents: readCents(p.charge_cents), earningCents: earning.cents, reversedBeforeCents, reversalCents: total });
    const lines: LineInput[] = [{ account: cash, cents: total }, { account: platformRevenue, cents: creatorPart - total }];
    if (earning && creatorPart !== 0) lines.push(creatorSide(earning, creatorPart, p.created_at));
    // a dispute's money is held by the provider until decided: open (reserved against) until won or lost
    if (p.kind === 'dispute' || p.kind === 'dispute_won') lines.push(...disputeHeld(-total));
    journals.push({
      ...base, kind: REVERSAL_JOURNAL[p.kind as Exclude<PaymentKind, 'charge'>], lines,
      reason: earning?.ownerId === null ? LOSS_REASONS.creatorGone : undefined,
    });
  }
  await postJournals(trx, journals);
}

/**
 * A refund decided (docs/payments.md, "Refunds are decided before they are made"): in the
 * transaction that wrote its refund_requests row, under the charge's lock, the 'refund_decided'
 * journal: the refund is owed, and the creator's share of it comes off their balance now, not
 * when the provider confirms, so no payout decided later can pay it out (the rest comes off the
 * platform's revenue). The share is the one the refund will have (everything reversed or decided
 * before it counted); a creator whose account is gone: the platform's loss, with its reason.
 * Returns the creator's part (cents, ≤ 0).
 */
export async function takeRefundShare(trx: DB, r: { requestId: string; chargeId: string; amountCents: number; now: Date }): Promise<number> {
  const row = await trx
    .selectFrom('payments as c')
    .select((eb) => [
      'c.amount_cents',
      eb
        .selectFrom('payments as b')
        .select((b) => b.fn.coalesce(b.fn.sum<string>('b.amount_cents'), b.val('0')).as('s'))
        .whereRef('b.reverses_payment_id', '=', 'c.id')
        .where('b.status', '=', 'succeeded')
        .as('settled'),
      eb
        .selectFrom('refund_requests as q')
        .select((b) => b.fn.coalesce(b.fn.sum<string>('q.amount_cents'), b.val('0')).as('s'))
        .whereRef('q.payment_id', '=', 'c.id')
        .where('q.completed_at', 'is', null)
        .where('q.id', '<>', r.requestId)
        .as('pending'),
    ])
    .where('c.id', '=', r.chargeId)
    .executeTakeFirstOrThrow();
  const earning = (await earningsOfCharges(trx, [r.chargeId])).get(r.chargeId);
  const share = earning
    ? reversalCreatorPart({
        chargeCents: readCents(row.amount_cents),
        earningCents: earning.cents,
        reversedBeforeCents: readCents(row.settled ?? '0') - readCents(row.pending ?? '0'),
        reversalCents: -r.amountCents,
      })
    : 0;
  const lines: LineInput[] = [{ account: refundsOwed, cents: -r.amountCents }, { account: platformRevenue, cents: r.amountCents + share }];
  if (earning && share !== 0) lines.push(creatorSide(earning, share, r.now));
  await postJournal(trx, {
    kind: 'refund_decided', key: refundDecidedKey(r.requestId), at: r.now, refundRequestId: r.requestId, lines,
    reason: earning?.ownerId === null ? LOSS_REASONS.creatorGone : undefined,
  });
  return share;
}

/**
 * A decided refund that will not be made (the charge was refunded elsewhere meanwhile, so the
 * provider has nothing left for it): its 'refund_decided' journal reversed, once ('refund_not_made').
 */
export async function giveBackRefundShare(trx: DB, requestId: string, now: Date): Promise<void> {
  const lines = await trx
    .selectFrom('journal_entries as j')
    .innerJoin('journal_lines as l', 'l.journal_id', 'j.id')
    .innerJoin('ledger_accounts as a', 'a.id', 'l.account_id')
    .select(['j.reason', 'l.amount_cents', 'l.available_at', 'a.kind', 'a.owner_id', 'a.provider'])
    .where('j.refund_request_id', '=', requestId)
    .where('j.kind', '=', 'refund_decided')
    .execute();
  if (lines.length === 0) return;
  // a share taken from a creator who has gone since is the platform's to keep: its loss, reversed
  const reversed: LineInput[] = lines.map((l) => {
    const account = accountOf(l) ?? losses;
    return { account, cents: -readCents(l.amount_cents), ...(account.kind === 'creator_pending' ? { availableAt: l.available_at ?? now } : {}) };
  });
  await postJournal(trx, {
    kind: 'refund_not_made', key: refundNotMadeKey(requestId), at: now, refundRequestId: requestId, lines: reversed,
    reason: reversed.some((l) => l.account.kind === 'losses') ? (lines[0]!.reason ?? LOSS_REASONS.creatorGone) : undefined,
  });
}
