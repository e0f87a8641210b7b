import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Issue 45, the daily reconciliation (domain/earnings/reconciliation.ts, docs/payments.md "The
 * ledger"): what each run found that does not match, per day and provider. A run replaces the
 * rows of the day it checked, so a mismatch fixed since is gone at the next run; /admin/payments
 * lists them and /metrics counts them.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`
    create table reconciliation_mismatches (
      id uuid primary key default gen_random_uuid(),
      day date not null,
      provider text not null,
      kind text not null,
      ref text not null,
      ledger_cents bigint not null,
      provider_cents bigint not null,
      found_at timestamptz not null default now(),
      unique (day, provider, kind, ref)
    )`.execute(db);
  await sql`create index reconciliation_mismatches_found_idx on reconciliation_mismatches (found_at desc)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table reconciliation_mismatches`.execute(db);
}
