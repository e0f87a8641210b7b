import { sql } from 'kysely';
import { withCreatedAt, withId, type MigrationDb } from './lib/ddl';

/**
 * Issue 22 §4, an admin's refund (docs/payments.md, "Refunds and disputes"): the request is written
 * with its outbox row in one transaction, before the provider is asked, so the amount it holds
 * counts against what is left to refund while the job runs; `completed_at` once the provider
 * confirmed and the reversal row is in the ledger. `reversal_key` is that row's system key (and the
 * provider's idempotency key): one request, one refund, however often it is retried.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('refund_requests')
    .$call(withId)
    .addColumn('payment_id', 'uuid', (c) => c.notNull().references('payments.id').onDelete('cascade'))
    .addColumn('amount', sql`numeric(10,2)`, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('reversal_key', 'text', (c) => c.notNull().unique())
    .addColumn('requested_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('completed_at', 'timestamptz')
    .$call(withCreatedAt)
    .execute();
  await sql`create index refund_requests_pending_idx on refund_requests (payment_id) where completed_at is null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('refund_requests').execute();
}
