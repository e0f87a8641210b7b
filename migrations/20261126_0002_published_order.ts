import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Published lists (the home feed, a creator's Content tab, Explore) order and page by when a post
 * was published, `(published_at, id)`, not when it was created: a draft published today is today's
 * post (issue 25). Every published post has its time (older rows take their creation time), and
 * the feed's and the creator's indexes follow the new order; drafts keep theirs on created_at.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`update posts set published_at = created_at where status = 'published' and published_at is null`.execute(db);
  await sql`alter table posts add constraint posts_published_at_check check (status <> 'published' or published_at is not null)`.execute(db);
  await sql`drop index posts_feed_idx`.execute(db);
  await sql`create index posts_feed_idx on posts (published_at desc, id desc) where status = 'published'`.execute(db);
  await sql`create index posts_creator_published_idx on posts (creator_id, published_at desc, id desc) where status = 'published'`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index posts_creator_published_idx`.execute(db);
  await sql`drop index posts_feed_idx`.execute(db);
  await sql`create index posts_feed_idx on posts (created_at desc, id desc) where status = 'published'`.execute(db);
  await sql`alter table posts drop constraint posts_published_at_check`.execute(db);
}
