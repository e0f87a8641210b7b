import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../core/db/kysely';
import type { Database } from '../../core/db/schema';
import { findExplorePage } from '../../server/features/explore/explore.queries';
import { findThreadPage } from '../../server/features/messages/messages.queries';
import { findFeedPage } from '../../server/features/posts/posts.queries';
import { findCreatorPostsPage } from '../../server/features/profiles/profiles.queries';
import { genericPlan } from '../helpers/generic-plan';
import { useTestDb } from '../helpers/test-db';

/**
 * The hot lists run as named prepared statements (core/db/prepared-statements.ts), so after a
 * few runs PostgreSQL plans them once, without their values. That plan must still walk the
 * list's index and stop after a page: a constant sent as a parameter (`status = $1` cannot match
 * the partial index `where status = 'published'`) or `LIMIT $n` (planned as a tenth of the rows)
 * turns it into a scan and a sort of every post, three times the CPU of planning each run.
 */
describe('the generic plans of the lists', () => {
  const t = useTestDb();
  const statements = new Map<string, CompiledQuery>();
  let viewerId = '';
  let creatorId = '';

  beforeAll(async () => {
    await sql`
      insert into users (id, email, password_hash, created_at)
      select md5('u' || i)::uuid, 'u' || i || '@plans.test', 'x', now() from generate_series(1, 120) i`.execute(t.db);
    await sql`
      insert into profiles (id, username, display_name, date_of_birth, is_creator)
      select md5('u' || i)::uuid, 'user' || i, 'User ' || i, '1990-01-01', i <= 100 from generate_series(1, 120) i`.execute(t.db);
    await sql`
      insert into privacy_settings (user_id, profile_visibility)
      select md5('u' || i)::uuid, case when i % 10 = 3 then 'private' when i % 10 = 5 then 'friends' else 'public' end from generate_series(1, 120) i`.execute(t.db);
    await sql`
      insert into posts (id, creator_id, title, post_text, status, target_status, media_kind, created_at, updated_at, published_at)
      select md5('p' || i)::uuid, md5('u' || (1 + i % 100))::uuid, 'Post ' || i, 'Text ' || i,
             case when i % 20 = 0 then 'draft' else 'published' end, case when i % 20 = 0 then 'draft' else 'published' end,
             'image', now() - (i || ' minutes')::interval, now(), now() - (i || ' minutes')::interval
      from generate_series(1, 20000) i`.execute(t.db);
    await sql`
      insert into messages (sender_id, recipient_id, content, created_at)
      select md5('u' || (101 + i % 20))::uuid, md5('u' || (101 + (i * 7 + 1) % 20))::uuid, 'Hi ' || i, now() - (i || ' seconds')::interval
      from generate_series(1, 20000) i where i % 20 <> (i * 7 + 1) % 20`.execute(t.db);
    await sql`analyze`.execute(t.db);
    viewerId = (await sql<{ id: string }>`select md5('u101')::uuid as id`.execute(t.db)).rows[0]!.id;
    creatorId = (await sql<{ id: string }>`select md5('u4')::uuid as id`.execute(t.db)).rows[0]!.id;
    const partnerId = (await sql<{ id: string }>`select md5('u102')::uuid as id`.execute(t.db)).rows[0]!.id;

    const captured: CompiledQuery[] = [];
    const capturing = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: t.url, max: 1 }) }),
      log: (event) => void captured.push(event.query),
    });
    const take = async (name: string, run: () => Promise<unknown[] | unknown>) => {
      captured.length = 0;
      const rows = await run();
      expect(Array.isArray(rows) ? rows.length : rows, name).toBeTruthy();
      statements.set(name, captured.at(-1)!);
    };
    try {
      await take('feed', () => findFeedPage(capturing, { viewerId, cursor: null, limit: 5 }));
      await take('feed, a later page', () => findFeedPage(capturing, { viewerId, cursor: { createdAt: new Date(Date.now() - 5000 * 60_000).toISOString(), id: viewerId }, limit: 5 }));
      await take('profile page', () => findCreatorPostsPage(capturing, { creatorId, viewerId, status: 'published', pinned: 'first', cursor: null, limit: 12 }));
      await take('thread', () => findThreadPage(capturing, viewerId, partnerId, null, 20));
    } finally {
      await capturing.destroy();
    }
  });

  it('walks the feed index and stops after a page, first page or later', async () => {
    for (const name of ['feed', 'feed, a later page']) {
      const plan = await genericPlan(t.url, statements.get(name)!);
      expect(plan, name).toContain('Index Scan using posts_feed_idx');
      expect(plan, name).not.toMatch(/Seq Scan on posts|Sort Key: posts_1\.published_at/);
    }
  });

  it("walks a creator's published posts for a profile page", async () => {
    const plan = await genericPlan(t.url, statements.get('profile page')!);
    expect(plan).toContain('posts_creator_published_idx');
    expect(plan).not.toMatch(/Seq Scan on posts/);
  });

  it("walks the pair's index for a thread", async () => {
    const plan = await genericPlan(t.url, statements.get('thread')!);
    expect(plan).toContain('messages_pair_idx');
    expect(plan).not.toMatch(/Seq Scan on messages/);
  });

  it("plans a search's matches with its words each time; their cards, and a page without a search, are prepared", async () => {
    const db = createDb(t.url, 1);
    try {
      const searched = await findExplorePage(db, { viewerId, q: 'Text', categories: [], cursor: null, limit: 8 });
      expect(searched).toHaveLength(8);
      await findExplorePage(db, { viewerId, q: null, categories: [], cursor: null, limit: 8 });
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db);
      expect(rows).toHaveLength(2);
      expect(rows.map((r) => r.statement).join('\n')).not.toContain('websearch_to_tsquery');
    } finally {
      await db.destroy();
    }
  });
});
