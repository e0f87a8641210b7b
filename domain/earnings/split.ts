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

type Entry = { account: 'platform' | 'creator'; creator_id: string | null; kind: 'charge' | 'reversal'; payment_id: string; amount_cents: number; available_at: Date; created_at: Date };

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
    .leftJoin('ledger_entries as e', (j) => j.onRef('e.payment_id', '=', 'c.id').on('e.account', '=', 'creator'))
    .select((eb) => [
      'p.id', 'p.kind', 'p.status', 'p.amount', 'p.creator_id', 'p.created_at', 'p.reverses_payment_id',
      'c.amount as charge_amount', 'e.creator_id as earning_creator_id', 'e.amount_cents as earning_cents', 'e.available_at as earning_available_at',
      eb
        .selectFrom('payments as b')
        .select((b) => b.fn.coalesce(b.fn.sum<string>('b.amount'), b.val('0')).as('s'))
        .whereRef('b.reverses_payment_id', '=', 'p.reverses_payment_id')
        .where('b.status', '=', 'succeeded')
        .where((w) => w.or([w('b.created_at', '<', w.ref('p.created_at')), w.and([w('b.created_at', '=', w.ref('p.created_at')), w('b.id', '<', w.ref('p.id'))])]))
        .as('reversed_before'),
    ])
    .where('p.id', 'in', paymentIds)
    .where('p.status', '=', 'succeeded')
    .orderBy('p.created_at')
    .execute();
  const entries: Entry[] = [];
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
    const earning = p.earning_cents === null ? 0 : Number(p.earning_cents);
    const creatorPart =
      p.earning_cents === null || p.charge_amount === null
        ? 0
        : reversalCreatorPart({ chargeCents: toCents(p.charge_amount), earningCents: earning, reversedBeforeCents: toCents(String(p.reversed_before ?? '0')), reversalCents: total });
    entries.push({ account: 'platform', creator_id: null, kind: 'reversal', payment_id: p.id, amount_cents: total - creatorPart, available_at: p.created_at, created_at: p.created_at });
    if (p.earning_cents !== null) {
      const held = p.earning_available_at && p.earning_available_at > p.created_at ? p.earning_available_at : p.created_at;
      entries.push({ account: 'creator', creator_id: p.earning_creator_id, kind: 'reversal', payment_id: p.id, amount_cents: creatorPart, available_at: held, created_at: p.created_at });
    }
  }
  if (entries.length === 0) return;
  await trx
    .insertInto('ledger_entries')
    .values(entries)
    .onConflict((oc) => oc.columns(['payment_id', 'account']).where('payment_id', 'is not', null).doNothing())
    .execute();
}
