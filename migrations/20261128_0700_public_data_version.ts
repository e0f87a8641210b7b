import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * The version of what a visitor may see (server/http/public-cache.ts keys its memory of anonymous
 * answers on it): every statement that writes a table those answers read takes one number from
 * `public_data_version`, whoever runs it (the app, the worker, a script, an operator's SQL, the
 * tests' factories), so no writer can forget to invalidate. A sequence, not a counter row:
 * `nextval` takes no lock and is never rolled back, so busy writers never queue on it, and a
 * rolled-back write only costs a cache miss. One number per statement (FOR EACH STATEMENT), not
 * per row.
 */
const TABLES = ['users', 'profiles', 'privacy_settings', 'posts', 'media_files', 'post_likes', 'comments', 'subscriptions', 'subscription_tiers'];

export async function up(db: MigrationDb): Promise<void> {
  await sql`create sequence public_data_version`.execute(db);
  await sql`create function bump_public_data_version() returns trigger language plpgsql as $$
    begin
      perform nextval('public_data_version');
      return null;
    end $$`.execute(db);
  for (const table of TABLES) {
    await sql`create trigger ${sql.id(`${table}_public_data_version`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function bump_public_data_version()`.execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of TABLES) await sql`drop trigger ${sql.id(`${table}_public_data_version`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function bump_public_data_version()`.execute(db);
  await sql`drop sequence public_data_version`.execute(db);
}
