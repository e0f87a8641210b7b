import { fromCents } from '../../common/money';
import { receiptNumberLabel, type ReceiptDto } from '../../common/receipts';
import { RECEIPT_TEXTS } from '../../common/wallet-texts';
import { BRAND } from '../../common/texts';
import { readCents, withCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { paymentLabel } from './reversal-state';

/**
 * A purchase's receipt (issue 47 item 6; docs/payments.md, "Receipts"), for its payer only: a
 * charge of someone else, a reversal row, a failed charge or an unknown id are all `null` (the
 * caller answers 404 alike, so an id tells nothing). Amounts are the payments rows' own, in rand as the API speaks.
 */
export async function findReceipt(db: DB, userId: string, paymentId: string): Promise<ReceiptDto | null> {
  const row = await db
    .selectFrom('payments as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .innerJoin('profiles as up', 'up.id', 'p.user_id')
    .leftJoin('profiles as cp', 'cp.id', 'p.creator_id')
    .select([
      'p.id', 'p.receipt_number', 'p.description', 'p.amount_cents', 'p.currency', 'p.provider', 'p.status', 'p.kind', 'p.created_at', 'p.tier_id', 'p.creator_id',
      'u.email', 'up.display_name as buyer_name', 'cp.display_name as creator_name', 'cp.username as creator_username',
    ])
    .where('p.id', '=', paymentId)
    .where('p.user_id', '=', userId)
    .where('p.kind', '=', 'charge')
    .where('p.receipt_number', 'is not', null)
    .executeTakeFirst();
  if (!row?.receipt_number) return null;

  const reversals = (
    await db
      .selectFrom('payments')
      .select(['kind', 'amount_cents', 'created_at'])
      .where('reverses_payment_id', '=', row.id)
      .where('status', '=', 'succeeded')
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  ).map((r) => withCents(r, ['amount_cents']));
  const amountCents = readCents(row.amount_cents);
  const net = reversals.reduce((sum, r) => sum + r.amount_cents, amountCents);
  // refund rows carry the money going back as a negative amount; the label reads it positive
  const refundedCents = reversals.filter((r) => r.kind === 'refund').reduce((sum, r) => sum - r.amount_cents, 0);
  const disputes = reversals.filter((r) => r.kind === 'dispute').length;
  const won = reversals.filter((r) => r.kind === 'dispute_won').length;

  return {
    paymentId: row.id,
    number: receiptNumberLabel(row.receipt_number),
    description: row.description,
    seller: sellerOf(row),
    buyer: { name: row.buyer_name, email: row.email },
    paidAt: row.created_at,
    amount: fromCents(amountCents),
    currency: row.currency,
    provider: row.provider,
    label: paymentLabel({ ...row, amountCents }, { refundedCents, disputed: disputes > won }),
    reversals: reversals.map((r) => ({ kind: r.kind as ReceiptDto['reversals'][number]['kind'], amount: fromCents(r.amount_cents), at: r.created_at })),
    net: fromCents(net),
  };
}

/**
 * Who sold it: the creator as they are named now; Premium (a tier with no creator) is the
 * platform's own; a creator whose account is gone left only the charge's words behind.
 */
function sellerOf(row: { creator_id: string | null; creator_name: string | null; creator_username: string | null; tier_id: string | null }): ReceiptDto['seller'] {
  if (row.creator_name) return { name: row.creator_name, username: row.creator_username };
  if (!row.creator_id && row.tier_id) return { name: BRAND.name, username: null };
  return { name: RECEIPT_TEXTS.creatorLeft, username: null };
}
