import type { DB } from '../../core/db/kysely';
import type { JournalKind } from '../../core/db/schema';
import { accountKey, accountKeyOfRow, accountRow, CREATOR_ACCOUNT_KINDS, LEDGER_CURRENCY, type AccountRef } from './accounts';

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

type AccountRow = ReturnType<typeof accountRow>;

/** The ids of those of `rows` that exist, by accountKey, in one statement. */
async function findAccounts(trx: DB, rows: readonly AccountRow[]): Promise<Map<string, string>> {
  const codes = rows.flatMap((a) => (a.code === null ? [] : [a.code]));
  const owners = [...new Set(rows.flatMap((a) => (a.owner_id === null ? [] : [a.owner_id])))];
  const found = await trx
    .selectFrom('ledger_accounts')
    .select(['id', 'code', 'kind', 'owner_id'])
    .where((eb) =>
      eb.or([
        ...(codes.length ? [eb('code', 'in', codes)] : []),
        ...(owners.length ? [eb.and([eb('owner_id', 'in', owners), eb('kind', 'in', CREATOR_ACCOUNT_KINDS)])] : []),
      ]),
    )
    .execute();
  return new Map(found.map((a) => [accountKeyOfRow(a), a.id]));
}

/**
 * The accounts' ids by accountKey. Accounts are read first (one statement once they exist, the
 * common case); one that is missing is made the first time money moves on it, then read again.
 */
async function resolveAccounts(trx: DB, refs: readonly AccountRef[]): Promise<Map<string, string>> {
  const rows = [...new Map(refs.map((a) => [accountKey(a), accountRow(a)])).values()];
  const ids = await findAccounts(trx, rows);
  const missing = rows.filter((a) => !ids.has(accountKeyOfRow(a)));
  if (missing.length === 0) return ids;
  const platform = missing.filter((a) => a.code !== null).map((a) => ({ ...a, currency: LEDGER_CURRENCY }));
  const creators = missing.filter((a) => a.code === null).map((a) => ({ ...a, currency: LEDGER_CURRENCY }));
  // two postings making the same account at once: the second's insert does nothing, its read finds the first's
  if (platform.length) await trx.insertInto('ledger_accounts').values(platform).onConflict((oc) => oc.column('code').doNothing()).execute();
  if (creators.length) {
    await trx.insertInto('ledger_accounts').values(creators).onConflict((oc) => oc.columns(['owner_id', 'kind']).where('owner_id', 'is not', null).doNothing()).execute();
  }
  return findAccounts(trx, rows);
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
