import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { createSession, generateSessionToken } from '../server/auth/session';
import type { Database } from '../core/db/schema';
import { findFeedPage } from '../server/features/posts/posts.queries';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { loadFigure, type Figure } from './lib/figures';
import { floorPageStatement } from './lib/floor-sql';
import { runLoad } from './lib/load';
import { startAppProcess, startFloorProcess } from './lib/processes';

const CREATORS = 500;
const FANS = 2_000;
let POSTS = 10_000;
const PAGE = 5;
/** the fan the bench signs in as (user number CREATORS + 1) subscribes to every 25th creator */
const FAN_NUMBER = CREATORS + 1;

/**
 * The same answer as `posts.feed` for a signed-in fan — session, page, creator cards, the three
 * counts, liked, bookmarked, media entitlement and media variants — in one hand-written
 * statement and one round trip: the floor.
 */
export const FLOOR_SQL = floorPageStatement(
  `from posts p
   join profiles pr on pr.id = p.creator_id
   left join privacy_settings ps on ps.user_id = p.creator_id
   where p.status = 'published'
     and (p.creator_id = (select user_id from v) or ps.profile_visibility is null or ps.profile_visibility not in ('private', 'hidden'))`,
  PAGE,
);

/**
 * Home feed over 10,000 posts by 500 creators with ~150,000 likes, ~30,000 comments, ~20,000
 * bookmarks and ~10,000 subscriptions: a page of 5 with counts and viewer state, signed in as a
 * fan, through the app in its own process (Express, session, tRPC, Kysely, superjson) against one
 * SQL statement behind bare node:http + pg in another.
 */
export async function benchFeed(ctx: BenchContext): Promise<Array<Figure | string>> {
  POSTS = Math.max(500, Math.round(10_000 * ctx.scale));
  const bench = await createBenchDb();
  const out: Array<Figure | string> = [];
  try {
    const started = Date.now();
    const counts = await seed(bench.db);
    out.push(
      `home feed: ${POSTS} posts by ${CREATORS} creators, ${counts.likes} likes, ${counts.comments} comments, ` +
        `${counts.bookmarks} bookmarks, ${counts.subscriptions} subscriptions (seeded in ${Date.now() - started} ms)`,
    );
    const fanId = await bench.db
      .selectFrom('profiles')
      .select('id')
      .where('username', '=', `user${FAN_NUMBER}`)
      .executeTakeFirstOrThrow();
    const token = generateSessionToken();
    await createSession(bench.db, token, fanId.id);
    const headers = { cookie: `session=${token}` };

    const app = await startAppProcess(bench.url);
    const floorServer = await startFloorProcess(bench.url, [
      { sql: FLOOR_SQL, values: ['$session'] },
      { sql: FLOOR_SQL, values: ['$session'], prepared: true },
    ]);
    try {
      const input = encodeURIComponent(JSON.stringify({ json: { limit: PAGE } }));
      const appUrl = `${app.url}/trpc/posts.feed?input=${input}`;
      const floorUrl = `${floorServer.url}/?r=0`;

      // both answer the same page, and the fan's state is on it
      const appPage = (await (await fetch(appUrl, { headers })).json()) as { result: { data: { json: { items: { id: string; viewer: { liked: boolean; canViewMedia: boolean } }[] } } } };
      const floorRows = (await (await fetch(floorUrl, { headers })).json()) as { id: string; liked: boolean; can_view_media: boolean }[];
      const appItems = appPage.result.data.json.items;
      if (appItems.map((i) => i.id).join() !== floorRows.map((r) => r.id).join()) throw new Error('app and floor disagree on the page');
      if (appItems.some((i, n) => i.viewer.liked !== floorRows[n]!.liked || i.viewer.canViewMedia !== floorRows[n]!.can_view_media)) {
        throw new Error('app and floor disagree on the viewer state');
      }

      const load = { connections: ctx.connections, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds, headers };
      const floor = await runLoad(floorUrl, load);
      const full = await runLoad(appUrl, load);
      out.push(loadFigure('GET /trpc/posts.feed (signed in, page of 5)', full, floor, 'floor: the same page, counts, viewer state and media in one statement on node:http + pg; target >= 0.65x rps, p99 <= 1.5x'));
      // The app's lists run as prepared statements (core/db/prepared-statements.ts), planned once
      // per connection, and the floors plan theirs on every request; the same floor with its
      // statement prepared tells how much of the ratio is the stack's and how much planning's.
      const preparedFloor = await runLoad(`${floorServer.url}/?r=1`, load);
      out.push(
        `  the same floor with its statement prepared: ${preparedFloor.rps.toFixed(1)} req/s, p99 ${preparedFloor.p99Ms.toFixed(1)} ms; ` +
          `the app ${(full.rps / preparedFloor.rps).toFixed(2)}x of it, p99 ${(full.p99Ms / preparedFloor.p99Ms).toFixed(2)}x`,
      );
    } finally {
      await floorServer.stop();
      await app.stop();
    }
    out.push(await benchProfilePage(ctx, bench.url, headers));

    // The main query as the app sends it, explained: the first page and one deep in the feed.
    const captured: CompiledQuery[] = [];
    const capturing = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: bench.url, max: 1 }) }),
      log: (event) => void captured.push(event.query),
    });
    const first = await findFeedPage(capturing, { viewerId: fanId.id, cursor: null, limit: PAGE });
    const deep = await sql<{ cursor_at: string; id: string }>`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at, id::text as id
      from posts where status = 'published' order by published_at desc, id desc offset ${Math.floor(POSTS * 0.8)} limit 1`.execute(bench.db);
    const at = deep.rows[0]!;
    await findFeedPage(capturing, { viewerId: fanId.id, cursor: { createdAt: at.cursor_at, id: at.id }, limit: PAGE });
    await capturing.destroy();
    if (first.length !== PAGE) throw new Error('feed page is short');
    const pool = new pg.Pool({ connectionString: bench.url, max: 1 });
    for (const [label, query] of [['first page', captured[0]!], ['a page deep in the feed', captured[1]!]] as const) {
      const plan = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, format text) ${query.sql}`, query.parameters as unknown[]);
      const text = plan.rows.map((r) => r['QUERY PLAN'].trim());
      out.push(`  plan (${label}): ${text.filter((l) => /Index|Seq Scan|Execution Time|Limit/.test(l)).join(' | ').slice(0, 400)}`);
    }
    await pool.end();
  } finally {
    await bench.destroy();
  }
  return out;
}

/**
 * A creator's profile page (profiles.posts, a page of 12) whose every 3rd post holds 4 files, as
 * the fan sees it, against the same page in one hand-written statement (the files of the page's
 * posts come in that statement, as the app's page does: no query per post).
 */
async function benchProfilePage(ctx: BenchContext, url: string, headers: Record<string, string>): Promise<Figure | string> {
  // public (user numbers 3 mod 50 are private)
  const creator = 'user4';
  const floorSql = floorPageStatement(
    `from posts p
     join profiles pr on pr.id = p.creator_id
     left join privacy_settings ps on ps.user_id = p.creator_id
     where p.status = 'published' and pr.username = '${creator}'
       and (p.creator_id = (select user_id from v) or ps.profile_visibility is null or ps.profile_visibility not in ('private', 'hidden'))`,
    PROFILE_PAGE,
  );
  const app = await startAppProcess(url);
  const floorServer = await startFloorProcess(url, [{ sql: floorSql, values: ['$session'] }]);
  try {
    const input = encodeURIComponent(JSON.stringify({ json: { username: creator, limit: PROFILE_PAGE } }));
    const appUrl = `${app.url}/trpc/profiles.posts?input=${input}`;
    const floorUrl = `${floorServer.url}/?r=0`;
    const appPage = (await (await fetch(appUrl, { headers })).json()) as { result?: { data: { json: { items: { id: string; files?: unknown[] }[] } } } };
    if (!appPage.result) throw new Error(`profiles.posts answered ${JSON.stringify(appPage).slice(0, 300)}`);
    const items = appPage.result.data.json.items;
    if (items.length !== PROFILE_PAGE) throw new Error(`profile page is short: ${items.length}`);
    const several = items.filter((i) => i.files?.length === 4).length;
    if (several === 0) throw new Error('the profile page has no post of several files');
    const load = { connections: ctx.connections, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds, headers };
    const floor = await runLoad(floorUrl, load);
    const full = await runLoad(appUrl, load);
    return loadFigure(
      `GET /trpc/profiles.posts (signed in, page of ${PROFILE_PAGE}, ${several} posts of 4 files)`,
      full,
      floor,
      'floor: the same page with every file of every post in one statement on node:http + pg; target >= 0.65x rps, p99 <= 1.5x',
    );
  } finally {
    await floorServer.stop();
    await app.stop();
  }
}

const PROFILE_PAGE = 12;

export async function seed(db: Awaited<ReturnType<typeof createBenchDb>>['db']) {
  const users = CREATORS + FANS;
  await sql`
    insert into users (id, email, password_hash, email_verified_at, created_at)
    select md5('u' || i)::uuid, 'u' || i || '@bench.test', 'x', now(), now() - (i || ' minutes')::interval
    from generate_series(1, ${sql.lit(users)}) i`.execute(db);
  await sql`
    insert into profiles (id, username, display_name, date_of_birth, is_creator, is_verified, is_premium, created_at)
    select md5('u' || i)::uuid, 'user' || i, 'User ' || i, '1990-01-01', i <= ${sql.lit(CREATORS)}, i % 50 = 0, i % 7 = 0, now() - (i || ' minutes')::interval
    from generate_series(1, ${sql.lit(users)}) i`.execute(db);
  // 2% of creators private and 1% hidden: their posts stay out of everyone's feed
  await sql`
    insert into privacy_settings (user_id, profile_visibility)
    select md5('u' || i)::uuid, case when i <= ${sql.lit(CREATORS)} and i % 50 = 3 then 'private' when i <= ${sql.lit(CREATORS)} and i % 100 = 7 then 'hidden' else 'public' end
    from generate_series(1, ${sql.lit(users)}) i`.execute(db);
  await sql`
    insert into subscription_tiers (id, creator_id, name, price_cents, payment_interval)
    select md5('t' || i)::uuid, md5('u' || i)::uuid, 'VIP Club', 5000, 'monthly' from generate_series(1, ${sql.lit(CREATORS)}) i`.execute(db);
  // every fan subscribes to 5 creators (one of them lapsed); the bench fan also to every 25th creator
  await sql`
    insert into subscriptions (subscriber_id, tier_id, status, current_period_start, current_period_end, price_cents)
    select md5('u' || f)::uuid, md5('t' || c)::uuid, 'active', now() - interval '10 days',
           case when k = 1 then now() - interval '1 day' else now() + interval '20 days' end, 5000
    from generate_series(${sql.lit(CREATORS + 1)}, ${sql.lit(users)}) f,
         generate_series(1, 5) k,
         lateral (select 1 + ((f * 31 + k * 97) % ${sql.lit(CREATORS)}) as c) pick
    union all
    select md5('u' || ${sql.lit(FAN_NUMBER)})::uuid, md5('t' || c)::uuid, 'active', now() - interval '10 days', now() + interval '20 days', 50
    from generate_series(1, ${sql.lit(CREATORS)}, 25) c`.execute(db);
  // every 20th post a draft, every 4th premium; one post every 3 minutes, creators interleaved
  await sql`
    insert into posts (id, creator_id, title, post_text, hashtags, is_premium, status, target_status, media_kind, created_at, updated_at, published_at)
    select md5('p' || i)::uuid, md5('u' || (1 + i % ${sql.lit(CREATORS)}))::uuid, 'Post ' || i, 'Text of post ' || i || ' #bench', '{bench}',
           i % 4 = 0, case when i % 20 = 0 then 'draft' else 'published' end, case when i % 20 = 0 then 'draft' else 'published' end,
           'image', now() - (i * 3 || ' minutes')::interval, now(), now() - (i * 3 || ' minutes')::interval
    from generate_series(1, ${sql.lit(POSTS)}) i`.execute(db);
  await sql`
    insert into media_files (post_id, variant, storage_key, content_type, byte_size, width, height)
    select md5('p' || i)::uuid, v, 'posts/' || md5('p' || i)::uuid || '/' || v || '.jpg', 'image/jpeg', 100000, 1280, 720
    from generate_series(1, ${sql.lit(POSTS)}) i, unnest(array['original', 'web', 'thumb', 'preview']) v
    where v <> 'preview' or i % 4 = 0`.execute(db);
  // every 3rd post holds 4 files (issue 29): files 2-4 at positions 1-3, each with its variants
  await sql`
    insert into post_files (post_id, position, media_kind, original_filename, status)
    select md5('p' || i)::uuid, k, 'image', 'file' || k || '.jpg', 'ready'
    from generate_series(3, ${sql.lit(POSTS)}, 3) i, generate_series(0, 3) k`.execute(db);
  await sql`
    insert into media_files (post_id, position, variant, storage_key, content_type, byte_size, width, height)
    select md5('p' || i)::uuid, k, v, 'posts/' || md5('p' || i)::uuid || '/' || k || '-' || v || '.jpg', 'image/jpeg', 100000, 1280, 720
    from generate_series(3, ${sql.lit(POSTS)}, 3) i, generate_series(1, 3) k, unnest(array['original', 'web', 'thumb']) v`.execute(db);
  // 0..29 likes per post (~15 on average), 0..5 comments, 0..3 bookmarks, from fans
  await sql`
    insert into post_likes (post_id, user_id)
    select md5('p' || i)::uuid, md5('u' || (${sql.lit(CREATORS + 1)} + (i * 7 + k * 131) % ${sql.lit(FANS)}))::uuid
    from generate_series(1, ${sql.lit(POSTS)}) i, lateral generate_series(1, i % 30) k
    on conflict do nothing`.execute(db);
  await sql`
    insert into comments (post_id, user_id, comment_text, created_at)
    select md5('p' || i)::uuid, md5('u' || (${sql.lit(CREATORS + 1)} + (i * 11 + k * 37) % ${sql.lit(FANS)}))::uuid, 'Comment ' || k, now() - (i || ' minutes')::interval
    from generate_series(1, ${sql.lit(POSTS)}) i, lateral generate_series(1, i % 6) k`.execute(db);
  await sql`
    insert into bookmarks (user_id, post_id)
    select md5('u' || (${sql.lit(CREATORS + 1)} + (i * 13 + k * 53) % ${sql.lit(FANS)}))::uuid, md5('p' || i)::uuid
    from generate_series(1, ${sql.lit(POSTS)}) i, lateral generate_series(1, i % 4) k
    on conflict do nothing`.execute(db);
  // the bench fan likes every 3rd post and bookmarks every 7th, so the page carries their state
  await sql`
    insert into post_likes (post_id, user_id)
    select md5('p' || i)::uuid, md5('u' || ${sql.lit(FAN_NUMBER)})::uuid from generate_series(3, ${sql.lit(POSTS)}, 3) i
    on conflict do nothing`.execute(db);
  await sql`
    insert into bookmarks (user_id, post_id)
    select md5('u' || ${sql.lit(FAN_NUMBER)})::uuid, md5('p' || i)::uuid from generate_series(1, ${sql.lit(POSTS)}, 7) i
    on conflict do nothing`.execute(db);
  await sql`analyze`.execute(db);
  const count = async (table: 'post_likes' | 'comments' | 'bookmarks' | 'subscriptions') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    likes: await count('post_likes'),
    comments: await count('comments'),
    bookmarks: await count('bookmarks'),
    subscriptions: await count('subscriptions'),
  };
}
