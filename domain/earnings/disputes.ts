import { sql } from 'kysely';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { postJournal } from '../ledger/post';
import { disputeHeld } from './split';

export const disputeLostKey = (disputeId: string) => `dispute-lost-${disputeId}`;

/**
 * A dispute lost (docs/payments.md, "The ledger"): the money the provider withheld when it opened
 * is gone for good, so it leaves the open disputes and their reserve ('dispute_lost'); nothing else
 * moves (the creator's share and the platform's revenue came off when it opened). `disputeId` is
 * the dispute's payments row. Under its charge's lock, once per dispute (its key: a redelivered
 * 'lost' posts nothing), and never more than its charge still has open (a dispute already won, or
 * closed otherwise, closes nothing). Returns whether a journal was posted now.
 */
export async function closeLostDispute(trx: DB, r: { disputeId: string; now: Date }): Promise<boolean> {
  const dispute = await trx
    .selectFrom('payments as d')
    .innerJoin('payments as c', 'c.id', 'd.reverses_payment_id')
    .select(['d.amount_cents', 'c.id as charge_id'])
    .where('d.id', '=', r.disputeId)
    .where('d.kind', '=', 'dispute')
    .executeTakeFirst();
  if (!dispute) return false;
  await trx.selectFrom('payments').select('id').where('id', '=', dispute.charge_id).forUpdate().execute();
  const open = await sql<{ cents: string }>`
    select coalesce(sum(l.amount_cents), 0) as cents
    from journal_entries j
    join journal_lines l on l.journal_id = j.id
    join ledger_accounts a on a.id = l.account_id and a.kind = 'disputes_open'
    where j.payment_id = ${dispute.charge_id}
       or j.payment_id in (select id from payments where reverses_payment_id = ${dispute.charge_id})`.execute(trx);
  const cents = Math.min(-readCents(dispute.amount_cents), readCents(open.rows[0]!.cents));
  if (cents <= 0) return false;
  return postJournal(trx, { kind: 'dispute_lost', key: disputeLostKey(r.disputeId), at: r.now, paymentId: r.disputeId, lines: disputeHeld(-cents) });
}
