import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * The counts a visitor sees (likes, comments, subscribers) get a version of their own
 * (server/http/public-data-version.ts). Every like, comment and subscription renewal took a number
 * of `public_data_version`, so under a steady trickle of them (the billing run renewing
 * subscriptions, fans liking) no copy kept an anonymous answer long enough to serve it twice: the
 * featured creators were computed for nearly every visitor. Those three tables now take a number
 * of `public_counts_version`; an answer made before a change of it alone may still be served for
 * a second (what is visible, which only the other tables decide, is still never served stale).
 */
const COUNT_TABLES = ['post_likes', 'comments', 'subscriptions'];

export async function up(db: MigrationDb): Promise<void> {
  await sql`create sequence public_counts_version`.execute(db);
  await sql`create function bump_public_counts_version() returns trigger language plpgsql as $$
    begin
      perform nextval('public_counts_version');
      return null;
    end $$`.execute(db);
  for (const table of COUNT_TABLES) {
    await sql`drop trigger ${sql.id(`${table}_public_data_version`)} on ${sql.table(table)}`.execute(db);
    await sql`create trigger ${sql.id(`${table}_public_counts_version`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function bump_public_counts_version()`.execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of COUNT_TABLES) {
    await sql`drop trigger ${sql.id(`${table}_public_counts_version`)} on ${sql.table(table)}`.execute(db);
    await sql`create trigger ${sql.id(`${table}_public_data_version`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function bump_public_data_version()`.execute(db);
  }
  await sql`drop function bump_public_counts_version()`.execute(db);
  await sql`drop sequence public_counts_version`.execute(db);
}
