import type { DB } from '../../core/db/kysely';


/** Journal lines as tests read them: the account's and the journal's kind, and cents credited (a party's gain positive). */
export interface CreditLine {
  account: string;
  journal: string;
  credit: number;
  reason: string | null;
}

function lines(db: DB) {
  return db
    .selectFrom('journal_lines as l')
    .innerJoin('journal_entries as j', 'j.id', 'l.journal_id')
    .innerJoin('ledger_accounts as a', 'a.id', 'l.account_id')
    .select(['a.kind as account', 'j.kind as journal', 'l.amount_cents', 'j.reason']);
}

const credit = (rows: { account: string; journal: string; amount_cents: string; reason: string | null }[]): CreditLine[] =>
  rows.map((r) => ({ account: r.account, journal: r.journal, credit: -Number(r.amount_cents), reason: r.reason }));

export const sumCredit = (rows: CreditLine[], pick: (l: CreditLine) => boolean = () => true) => rows.filter(pick).reduce((t, l) => t + l.credit, 0);
export const isCreator = (l: CreditLine) => l.account === 'creator_pending' || l.account === 'creator_available';

/** A payment's own journal: what the platform and the creator got of it, and what the provider's money moved by (debit). */
export async function paymentShares(db: DB, paymentId: string) {
  const rows = credit(await lines(db).where('j.payment_id', '=', paymentId).execute());
  return {
    platform: sumCredit(rows, (l) => l.account === 'platform_revenue'),
    creator: rows.some(isCreator) ? sumCredit(rows, isCreator) : null,
    cash: -sumCredit(rows, (l) => l.account === 'provider_cash'),
    lines: rows,
  };
}

/** A creator's two accounts: read them before the creator goes (then they name no one) to follow them after. */
export async function creatorAccountIds(db: DB, creatorId: string): Promise<string[]> {
  return (await db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', creatorId).execute()).map((a) => a.id);
}

/** Every line of the given accounts (a creator's: creatorAccountIds). */
export async function accountLines(db: DB, accountIds: string[]) {
  return accountIds.length === 0 ? [] : credit(await lines(db).where('a.id', 'in', accountIds).execute());
}

/** Every line of a creator's two accounts, while the creator is here. */
export async function creatorAccountLines(db: DB, creatorId: string) {
  return accountLines(db, await creatorAccountIds(db, creatorId));
}

/**
 * The lines of the money around one charge: its journal, its reversals' journals, the refunds
 * decided for it (and undone), and the given payouts' journals.
 */
export async function linesAround(db: DB, chargeId: string, payoutIds: string[] = []) {
  const reversals = (await db.selectFrom('payments').select('id').where('reverses_payment_id', '=', chargeId).execute()).map((r) => r.id);
  const requests = (await db.selectFrom('refund_requests').select('id').where('payment_id', '=', chargeId).execute()).map((r) => r.id);
  return credit(
    await lines(db)
      .where((eb) =>
        eb.or([
          eb('j.payment_id', 'in', [chargeId, ...reversals]),
          ...(requests.length ? [eb('j.refund_request_id', 'in', requests)] : []),
          ...(payoutIds.length ? [eb('j.payout_id', 'in', payoutIds)] : []),
        ]),
      )
      .execute(),
  );
}
