import { sql } from 'kysely';
import { isOneOf, type MigrationDb } from './lib/ddl';

/**
 * The ledger's reversals and the outbox (issues 22 and 24).
 * - payments.kind: a charge, or a reversal of one (a refund, a dispute opened, a dispute won back)
 *   in a row of its own that points at its charge (`reverses_payment_id`); the charge keeps its
 *   amount, a refund or dispute carries the negative, so sums over the ledger are net.
 * - payments.system_key: keys the system makes (renewals, reversals, duplicate checkouts) live
 *   apart from the keys clients send (`idempotency_key`), in an index of their own, so no client
 *   can take a key the system will need. Old system keys move over.
 * - outbox: every job that must happen is first a row written in the transaction that needs it;
 *   the relay (worker/jobs/outbox-relay.ts) queues rows, queues them again when Redis lost them,
 *   and retries jobs that failed, until the worker marks the row done.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table payments
    add column kind text not null default 'charge',
    add column reverses_payment_id uuid references payments (id) on delete set null,
    add column system_key text`.execute(db);
  await sql`alter table payments add constraint payments_kind_check check (${isOneOf('kind', ['charge', 'refund', 'dispute', 'dispute_won'])})`.execute(db);
  await sql`alter table payments drop constraint payments_amount_check`.execute(db);
  await sql`alter table payments add constraint payments_amount_check check (
    (kind in ('refund', 'dispute') and amount < 0) or (kind in ('charge', 'dispute_won') and amount >= 0))`.execute(db);
  await sql`alter table payments add constraint payments_reversal_check check (kind <> 'charge' or reverses_payment_id is null)`.execute(db);
  await sql`update payments set system_key = idempotency_key, idempotency_key = null
    where idempotency_key ~ '^(renewal-|failed-renewal-|duplicate-checkout-)'`.execute(db);
  await sql`alter table payments add constraint payments_one_key_check check (idempotency_key is null or system_key is null)`.execute(db);
  // a provider's charge id is recorded once; a dispute and its outcome share the dispute's id
  await sql`drop index payments_provider_ref_key`.execute(db);
  await sql`create unique index payments_provider_ref_key on payments (provider, provider_ref) where provider_ref is not null and kind = 'charge'`.execute(db);
  await sql`create unique index payments_system_key on payments (system_key) where system_key is not null`.execute(db);
  await sql`create index payments_reverses_payment_id_idx on payments (reverses_payment_id) where reverses_payment_id is not null`.execute(db);

  await sql`create table outbox (
    id uuid primary key default gen_random_uuid(),
    queue text not null,
    name text not null,
    job_id text not null unique,
    data jsonb not null,
    options jsonb not null default '{}',
    available_at timestamptz not null default now(),
    relays integer not null default 0,
    relayed_at timestamptz,
    done_at timestamptz,
    failed_at timestamptz,
    last_error text,
    created_at timestamptz not null default now()
  )`.execute(db);
  // the relay's scan (rows not done, by when they may run) and the pruning of done rows
  await sql`create index outbox_pending_idx on outbox (available_at) where done_at is null`.execute(db);
  await sql`create index outbox_done_at_idx on outbox (done_at) where done_at is not null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table outbox`.execute(db);
  await sql`drop index payments_reverses_payment_id_idx`.execute(db);
  await sql`drop index payments_system_key`.execute(db);
  await sql`delete from payments where kind <> 'charge'`.execute(db);
  await sql`drop index payments_provider_ref_key`.execute(db);
  await sql`create unique index payments_provider_ref_key on payments (provider, provider_ref) where provider_ref is not null`.execute(db);
  await sql`alter table payments drop constraint payments_one_key_check`.execute(db);
  await sql`update payments set idempotency_key = system_key where system_key is not null`.execute(db);
  await sql`alter table payments drop constraint payments_reversal_check`.execute(db);
  await sql`alter table payments drop constraint payments_amount_check`.execute(db);
  await sql`alter table payments add constraint payments_amount_check check (amount >= 0)`.execute(db);
  await sql`alter table payments drop constraint payments_kind_check`.execute(db);
  await sql`alter table payments drop column system_key, drop column reverses_payment_id, drop column kind`.execute(db);
}
