import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * A fan-out batch's pushes (issue 50 item 4, docs/notifications.md): one row per (notification,
 * browser), written in the batch's transaction with the one `send-push-batch` outbox row that
 * sends them. `sent_at` is set once the push service took the push (or the push was skipped for
 * good: read meanwhile, over the hour's cap), so a batch run again after a partial failure sends
 * only what is still unsent, and the primary key keeps a batch written twice from pushing twice.
 * Rows go with their notification or browser.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`
    create table push_sends (
      notification_id uuid not null references notifications(id) on delete cascade,
      subscription_id uuid not null references push_subscriptions(id) on delete cascade,
      batch text not null,
      sent_at timestamptz,
      created_at timestamptz not null default now(),
      primary key (notification_id, subscription_id)
    )
  `.execute(db);
  await sql`create index push_sends_unsent on push_sends (batch) where sent_at is null`.execute(db);
  await sql`create index push_sends_subscription on push_sends (subscription_id)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table push_sends`.execute(db);
}
