import { sql } from 'kysely';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import type { PaymentProvider, ProviderBalanceTotals, ProviderMoneyKind } from '../../core/payments/provider';
import { DAY_MS } from '../billing/periods';

export interface Mismatch {
  provider: string;
  kind: string;
  ref: string;
  ledgerCents: number;
  providerCents: number;
}

/** The journals whose provider line counts as each kind of the provider's money. */
const KIND_JOURNALS: Record<ProviderMoneyKind, readonly string[]> = {
  charges: ['charge'],
  refunds: ['refund', 'refund_settled'],
  disputes: ['dispute_opened', 'dispute_won'],
  transfers: ['payout_paid'],
};

/**
 * Our own records against the ledger for one provider and day: every succeeded payment of the day
 * moved the provider's money by its amount (its journals' provider lines), every payout paid that
 * day took its amount out, and no provider line of the day belongs to neither.
 */
async function ownRecordsAgainstLedger(db: DB, provider: string, from: Date, to: Date): Promise<Mismatch[]> {
  const cash = `provider_cash:${provider}`;
  const payments = await sql<{ id: string; amount_cents: string; ledger: string }>`
    select p.id, p.amount_cents,
      coalesce((select sum(l.amount_cents) from journal_entries j join journal_lines l on l.journal_id = j.id
                join ledger_accounts a on a.id = l.account_id and a.code = ${cash} where j.payment_id = p.id), 0) as ledger
    from payments p
    where p.provider = ${provider} and p.status = 'succeeded' and p.created_at >= ${from} and p.created_at < ${to}`.execute(db);
  const payouts = await sql<{ id: string; amount_cents: string; ledger: string }>`
    select o.id, o.amount_cents,
      coalesce((select -sum(l.amount_cents) from journal_entries j join journal_lines l on l.journal_id = j.id
                join ledger_accounts a on a.id = l.account_id and a.code = ${cash} where j.payout_id = o.id), 0) as ledger
    from payouts o
    where o.provider = ${provider} and o.status = 'paid' and o.settled_at >= ${from} and o.settled_at < ${to}`.execute(db);
  const orphans = await sql<{ id: string; ledger: string }>`
    select j.id, sum(l.amount_cents) as ledger
    from journal_lines l join ledger_accounts a on a.id = l.account_id and a.code = ${cash} join journal_entries j on j.id = l.journal_id
    where l.occurred_at >= ${from} and l.occurred_at < ${to}
      and not exists (select 1 from payments p where p.id = j.payment_id and p.status = 'succeeded')
      and not exists (select 1 from payouts o where o.id = j.payout_id and o.status = 'paid')
    group by j.id`.execute(db);
  return [
    ...payments.rows
      .filter((p) => readCents(p.ledger) !== readCents(p.amount_cents))
      .map((p) => ({ provider, kind: 'payment_not_in_ledger', ref: p.id, ledgerCents: readCents(p.ledger), providerCents: readCents(p.amount_cents) })),
    ...payouts.rows
      .filter((o) => readCents(o.ledger) !== readCents(o.amount_cents))
      .map((o) => ({ provider, kind: 'payout_not_in_ledger', ref: o.id, ledgerCents: readCents(o.ledger), providerCents: readCents(o.amount_cents) })),
    ...orphans.rows.map((j) => ({ provider, kind: 'ledger_without_record', ref: j.id, ledgerCents: readCents(j.ledger), providerCents: 0 })),
  ];
}

/** The provider's own totals of the day against the ledger's provider lines of the same kinds. */
async function providerTotalsAgainstLedger(db: DB, provider: string, totals: ProviderBalanceTotals, from: Date, to: Date): Promise<Mismatch[]> {
  const rows = await sql<{ kind: string; cents: string }>`
    select l.kind, sum(l.amount_cents) as cents
    from journal_lines l join ledger_accounts a on a.id = l.account_id and a.code = ${`provider_cash:${provider}`}
    where l.occurred_at >= ${from} and l.occurred_at < ${to}
    group by l.kind`.execute(db);
  const byJournal = new Map(rows.rows.map((r) => [r.kind, readCents(r.cents)]));
  return (Object.keys(KIND_JOURNALS) as ProviderMoneyKind[]).flatMap((kind) => {
    const ledger = KIND_JOURNALS[kind].reduce((t, j) => t + (byJournal.get(j) ?? 0), 0);
    return ledger === totals[kind] ? [] : [{ provider, kind: `provider_total:${kind}`, ref: kind, ledgerCents: ledger, providerCents: totals[kind] }];
  });
}

/**
 * The daily reconciliation (job `reconcile-ledger`; docs/payments.md, "The ledger"): for the UTC
 * day `day` (its start), every provider money moved with is checked two ways: our payments and
 * payouts rows against the ledger, and the provider's own records (Stripe's balance transactions)
 * against the ledger's lines of the provider's money. What does not match replaces the day's rows
 * of reconciliation_mismatches, so a run again after a fix clears them. Returns the mismatches.
 */
export async function reconcileDay(deps: { db: DB; providerFor: (name: string) => PaymentProvider }, day: Date): Promise<Mismatch[]> {
  const from = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()));
  const to = new Date(from.getTime() + DAY_MS);
  const providers = await sql<{ provider: string }>`
    select provider from payments where created_at >= ${from} and created_at < ${to}
    union select provider from payouts where settled_at >= ${from} and settled_at < ${to}
    union select provider from ledger_accounts where kind = 'provider_cash'`.execute(deps.db);
  const found: Mismatch[] = [];
  for (const { provider } of providers.rows) {
    found.push(...(await ownRecordsAgainstLedger(deps.db, provider, from, to)));
    // a provider no longer configured here cannot be asked: our own rows are still checked
    const reachable = (() => {
      try {
        return deps.providerFor(provider);
      } catch {
        return null;
      }
    })();
    const totals = reachable ? await reachable.balanceTotals(from, to) : null;
    if (totals) found.push(...(await providerTotalsAgainstLedger(deps.db, provider, totals, from, to)));
  }
  const dayText = from.toISOString().slice(0, 10);
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('reconciliation_mismatches').where('day', '=', dayText).execute();
    if (found.length > 0) {
      await trx
        .insertInto('reconciliation_mismatches')
        .values(found.map((m) => ({ day: dayText, provider: m.provider, kind: m.kind, ref: m.ref, ledger_cents: m.ledgerCents, provider_cents: m.providerCents })))
        .execute();
    }
  });
  return found;
}

/** The mismatches the last runs found, newest first (the admin's payments screen). */
export function findMismatches(db: DB, limit = 100) {
  return db
    .selectFrom('reconciliation_mismatches')
    .select(['id', sql<string>`day::text`.as('day'), 'provider', 'kind', 'ref', 'ledger_cents', 'provider_cents', 'found_at'])
    .orderBy('day', 'desc')
    .orderBy('kind')
    .limit(limit)
    .execute();
}
