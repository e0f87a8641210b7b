import type { DB } from '../../core/db/kysely';
import type { JournalKind } from '../../core/db/schema';
import { accountKey, accountRow, LEDGER_CURRENCY, type AccountRef } from './accounts';

export interface LineInput {
  account: AccountRef;
  /** signed whole cents, debit positive */
  cents: number;
  /** a creator's pending line: when it counts as available (required there, refused elsewhere) */
  availableAt?: Date;
}

export interface JournalInput {
  kind: JournalKind;
  /** the event's own key: posting it again posts nothing */
  key: string;
  at: Date;
  /** a loss's reason (losses lines need one) */
  reason?: string;
  paymentId?: string;
  payoutId?: string;
  refundRequestId?: string;
  lines: readonly LineInput[];
}

export class UnbalancedJournalError extends Error {}

const LINE_BATCH = 4_000;

/** The lines worth writing (zero moves nothing), checked before the database's own trigger sees them. */
function checked(j: JournalInput): LineInput[] {
  const lines = j.lines.filter((l) => l.cents !== 0);
  let total = 0;
  for (const l of lines) {
    if (!Number.isSafeInteger(l.cents)) throw new UnbalancedJournalError(`${j.key}: ${l.cents} is not a whole number of cents`);
    if ((l.account.kind === 'creator_pending') !== (l.availableAt !== undefined)) {
      throw new UnbalancedJournalError(`${j.key}: a pending line, and only a pending line, says when it becomes available`);
    }
    if (l.account.kind === 'losses' && !j.reason) throw new UnbalancedJournalError(`${j.key}: a loss needs its reason`);
    total += l.cents;
  }
  if (total !== 0) throw new UnbalancedJournalError(`${j.key} (${j.kind}) is off by ${total} cents`);
  return lines;
}

/** The accounts' ids by accountKey, each made the first time money moves on it. */
async function resolveAccounts(trx: DB, refs: readonly AccountRef[]): Promise<Map<string, string>> {
  const rows = new Map(refs.map((a) => [accountKey(a), accountRow(a)]));
  const platform = [...rows.values()].filter((a) => a.code !== null);
  const creators = [...rows.values()].filter((a) => a.owner_id !== null);
  const ids = new Map<string, string>();
  if (platform.length > 0) {
    await trx.insertInto('ledger_accounts').values(platform.map((a) => ({ ...a, currency: LEDGER_CURRENCY }))).onConflict((oc) => oc.column('code').doNothing()).execute();
    const found = await trx.selectFrom('ledger_accounts').select(['id', 'code']).where('code', 'in', platform.map((a) => a.code!)).execute();
    for (const a of found) ids.set(a.code!, a.id);
  }
  if (creators.length > 0) {
    await trx
      .insertInto('ledger_accounts')
      .values(creators.map((a) => ({ ...a, currency: LEDGER_CURRENCY })))
      .onConflict((oc) => oc.columns(['owner_id', 'kind']).where('owner_id', 'is not', null).doNothing())
      .execute();
    const found = await trx
      .selectFrom('ledger_accounts')
      .select(['id', 'kind', 'owner_id'])
      .where('owner_id', 'in', [...new Set(creators.map((a) => a.owner_id!))])
      .execute();
    for (const a of found) ids.set(`${a.kind}:${a.owner_id}`, a.id);
  }
  return ids;
}

/**
 * The one way money is written (docs/payments.md, "The ledger"): journals, each of lines that sum
 * to zero, in the caller's transaction (the database checks the sums at commit, so a journal is
 * never seen half written). A journal whose key was posted before posts nothing; one whose lines
 * are all zero moved nothing and is not written. Returns the keys posted now.
 */
export async function postJournals(trx: DB, journals: readonly JournalInput[]): Promise<Set<string>> {
  const byKey = new Map(journals.map((j) => [j.key, j]));
  const ready = [...byKey.values()].map((j) => ({ j, lines: checked(j) })).filter((r) => r.lines.length >= 2);
  const posted = new Set<string>();
  if (ready.length === 0) return posted;
  if (!trx.isTransaction) throw new Error('postJournals runs inside the transaction of the change that moves the money');

  const ids = await resolveAccounts(trx, ready.flatMap((r) => r.lines.map((l) => l.account)));

  const entries = await trx
    .insertInto('journal_entries')
    .values(
      ready.map(({ j }) => ({
        kind: j.kind, key: j.key, reason: j.reason ?? null, payment_id: j.paymentId ?? null, payout_id: j.payoutId ?? null,
        refund_request_id: j.refundRequestId ?? null, occurred_at: j.at,
      })),
    )
    .onConflict((oc) => oc.column('key').doNothing())
    .returning(['id', 'key'])
    .execute();
  const journalIds = new Map(entries.map((e) => [e.key, e.id]));
  const rows = ready.flatMap(({ j, lines }) => {
    const journalId = journalIds.get(j.key);
    if (!journalId) return [];
    posted.add(j.key);
    return lines.map((l) => ({
      journal_id: journalId, account_id: ids.get(accountKey(l.account))!, currency: LEDGER_CURRENCY, kind: j.kind,
      amount_cents: l.cents, available_at: l.availableAt ?? null, occurred_at: j.at,
    }));
  });
  for (let i = 0; i < rows.length; i += LINE_BATCH) await trx.insertInto('journal_lines').values(rows.slice(i, i + LINE_BATCH)).execute();
  return posted;
}

/** One journal; whether it was posted now (false: its key was posted before, or it moved nothing). */
export async function postJournal(trx: DB, j: JournalInput): Promise<boolean> {
  return (await postJournals(trx, [j])).has(j.key);
}
