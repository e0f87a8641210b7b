import { sql } from 'kysely';
import { isOneOf, type MigrationDb } from './lib/ddl';

/**
 * Messages to many that stop (issue 44 item 2). Each batch's next step is an outbox row written
 * with the batch, so Redis forgetting loses nothing; what is left is a chain that stops moving:
 * - progressed_at: when a batch last committed (or the row was made); the worker's keeper looks
 *   at unfinished ones idle for LOST_JOB_AFTER_MS (worker/jobs/stalled-mass-messages.ts);
 * - status 'failed' with stopped_total: a chain whose outbox row failed for good, and the
 *   audience's size when it stopped (delivered + those left), for 'Stopped: delivered to N of M'
 *   on the creator's list.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table mass_messages add column progressed_at timestamptz not null default now(), add column stopped_total integer`.execute(db);
  await sql`alter table mass_messages drop constraint mass_messages_status_check`.execute(db);
  await sql`alter table mass_messages add constraint mass_messages_status_check check (${isOneOf('status', ['queued', 'sending', 'sent', 'failed'])})`.execute(db);
  await sql`create index mass_messages_unfinished_idx on mass_messages (progressed_at) where status in ('queued', 'sending')`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index mass_messages_unfinished_idx`.execute(db);
  await sql`update mass_messages set status = 'sending' where status = 'failed'`.execute(db);
  await sql`alter table mass_messages drop constraint mass_messages_status_check`.execute(db);
  await sql`alter table mass_messages add constraint mass_messages_status_check check (${isOneOf('status', ['queued', 'sending', 'sent'])})`.execute(db);
  await sql`alter table mass_messages drop column progressed_at, drop column stopped_total`.execute(db);
}
