import { sql } from 'kysely';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { loadFigure, type Figure } from './lib/figures';
import { runLoad } from './lib/load';
import { startAppProcess, startFloorProcess } from './lib/processes';

let CREATORS = 10_000;
let FANS = 20_000;
const SUBSCRIPTIONS_PER_FAN = 10;

/** The same rows `creators.featured` returns, as one hand-written statement: the floor. */
export const FEATURED_FLOOR_SQL = `
  select c.id, c.username, c.display_name, c.avatar_url, c.is_verified, c.is_premium,
         (select count(distinct s.subscriber_id) from subscriptions s join subscription_tiers t on t.id = s.tier_id
          where t.creator_id = c.id and s.status = 'active' and s.current_period_end > now()) as subscriber_count
  from (
    select p.* from profiles p left join privacy_settings ps on ps.user_id = p.id
    where p.is_creator and (ps.profile_visibility is null or ps.profile_visibility not in ('private','hidden'))
    order by p.is_verified desc, p.is_premium desc, p.created_at, p.id limit 6
  ) c
  order by c.is_verified desc, c.is_premium desc, c.created_at, c.id`;

/**
 * Landing page's featured creators over 10,000 creators and ~200,000 subscriptions (and their
 * subscriber rows; one in ten expired, one in ten active but past its period end): the app in its
 * own process (Express, context, tRPC, Kysely, superjson) against bare node:http + pg in another.
 */
export async function benchFeatured(ctx: BenchContext): Promise<Array<Figure | string>> {
  const bench = await createBenchDb();
  const out: Array<Figure | string> = [];
  try {
    const started = Date.now();
    await seedFeatured(bench.db, ctx.scale);
    out.push(`featured creators: ${CREATORS} creators, ${FANS} fans, ~${FANS * SUBSCRIPTIONS_PER_FAN} subscriptions (seeded in ${Date.now() - started} ms)`);

    const app = await startAppProcess(bench.url);
    const floorServer = await startFloorProcess(bench.url, [{ sql: FEATURED_FLOOR_SQL, values: [] }]);
    try {
      const appUrl = `${app.url}/trpc/creators.featured`;
      const floorUrl = `${floorServer.url}/?r=0`;
      const appRows = (await (await fetch(appUrl)).json()) as { result: { data: { json: { id: string }[] | { items: { id: string }[] } } } };
      const data = appRows.result.data.json;
      const appIds = (Array.isArray(data) ? data : data.items).map((c) => c.id);
      const floorIds = ((await (await fetch(floorUrl)).json()) as { id: string }[]).map((r) => r.id);
      if (appIds.join() !== floorIds.join()) out.push(`  NOTE: app and floor list different creators (${appIds.length} vs ${floorIds.length})`);

      const load = { connections: ctx.connections, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds };
      const floor = await runLoad(floorUrl, load);
      const full = await runLoad(appUrl, load);
      out.push(loadFigure('GET /trpc/creators.featured', full, floor, 'floor: the same six creators and counts, one statement on node:http + pg; target >= 0.65x rps, p99 <= 1.5x'));

      // The ceiling the stack sets: the same floor beside requests that do no work of their own.
      // If an empty procedure cannot reach 0.65x of this floor, no query or mapping can.
      const empty = await runLoad(`${app.url}/trpc/auth.me`, load);
      out.push(loadFigure('  stack ceiling: GET /trpc/auth.me, no session', empty, floor, 'an anonymous tRPC query that reads nothing (Express, middleware, context, tRPC, superjson) beside the featured floor'));
      const bare = await runLoad(`${app.url}/healthz`, load);
      out.push(loadFigure('  stack ceiling: GET /healthz', bare, floor, 'a plain Express route behind the same middleware (helmet, gzip, metrics; the request log skips it), no tRPC, beside the featured floor'));

      const plan = await sql.raw(`explain (analyze, format text) ${FEATURED_FLOOR_SQL}`).execute(bench.db);
      const text = (plan.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']);
      out.push(`  plan: ${text.filter((l) => /Index|Seq Scan|Execution Time/.test(l)).map((l) => l.trim()).join(' | ').slice(0, 400)}`);
    } finally {
      await floorServer.stop();
      await app.stop();
    }
  } finally {
    await bench.destroy();
  }
  return out;
}

/** 10,000 creators and 20,000 fans at scale 1 (the featured list's data; bench/two-copies.ts reuses it). */
export async function seedFeatured(db: Awaited<ReturnType<typeof createBenchDb>>['db'], scale: number) {
  CREATORS = Math.max(200, Math.round(10_000 * scale));
  FANS = Math.max(400, Math.round(20_000 * scale));
  await sql`
    insert into users (id, email, password_hash, email_verified_at, created_at)
    select md5('u' || i)::uuid, 'u' || i || '@bench.test', 'x', now(), now() - (i || ' minutes')::interval
    from generate_series(1, ${sql.lit(CREATORS + FANS)}) i`.execute(db);
  await sql`
    insert into profiles (id, username, display_name, date_of_birth, is_creator, is_verified, is_premium, created_at)
    select md5('u' || i)::uuid, 'user' || i, 'User ' || i, '1990-01-01', i <= ${sql.lit(CREATORS)}, i % 500 = 0, i % 97 = 0, now() - (i || ' minutes')::interval
    from generate_series(1, ${sql.lit(CREATORS + FANS)}) i`.execute(db);
  await sql`
    insert into privacy_settings (user_id, profile_visibility)
    select md5('u' || i)::uuid, case when i % 50 = 0 then 'private' when i % 77 = 0 then 'hidden' else 'public' end
    from generate_series(1, ${sql.lit(CREATORS + FANS)}) i`.execute(db);
  await sql`
    insert into subscription_tiers (id, creator_id, name, price_cents, payment_interval)
    select md5('t' || i)::uuid, md5('u' || i)::uuid, 'Fan Club', 5000, 'monthly' from generate_series(1, ${sql.lit(CREATORS)}) i`.execute(db);
  // raw SQL rather than recordSubscriptions (domain/subscriptions/write.ts) for speed; the same two tables
  await sql`
    insert into subscriptions (subscriber_id, tier_id, status, current_period_start, current_period_end, price_cents)
    select distinct on (c, f) md5('u' || f)::uuid, md5('t' || c)::uuid, case when k = 1 then 'expired' else 'active' end,
           now() - interval '40 days', case when k <= 2 then now() - interval '10 days' else now() + interval '20 days' end, 5000
    from generate_series(${sql.lit(CREATORS + 1)}, ${sql.lit(CREATORS + FANS)}) f,
         generate_series(1, ${sql.lit(SUBSCRIPTIONS_PER_FAN)}) k,
         lateral (select 1 + ((f * 7919 + k * 104729) % ${sql.lit(CREATORS)}) as c) pick
    order by c, f, k`.execute(db);
  await sql`
    insert into subscribers (creator_id, subscriber_id, tier_id, status)
    select t.creator_id, s.subscriber_id, s.tier_id, s.status from subscriptions s join subscription_tiers t on t.id = s.tier_id`.execute(db);
  await sql`vacuum analyze`.execute(db);
}
