import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import type { ExploreCategory } from '../common/profile-schemas';
import { createSession, generateSessionToken } from '../server/auth/session';
import type { Database } from '../core/db/schema';
import { findExplorePage } from '../server/features/explore/explore.queries';
import { containsPattern } from '../server/shared/contains-pattern';
import { seedExploreData } from '../tests/helpers/explore-data';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { loadFigure, type Figure } from './lib/figures';
import { floorPageStatement } from './lib/floor-sql';
import { runLoad } from './lib/load';
import { startAppProcess, startFloorProcess } from './lib/processes';

let CREATORS = 10_000;
const FANS = 1_000;
let POSTS = 100_000;
const PAGE = 8;
/** the fan the bench signs in as (user number CREATORS + 1) subscribes to every 25th creator */
let FAN_NUMBER = CREATORS + 1;

interface Scenario {
  label: string;
  q: string | null;
  categories: ExploreCategory[];
}

/**
 * Chosen from the seeded data (so each finds a page): a fragment of a display name a few creators
 * share, in another case; a word in ~2% of the posts; a made-up word of the long tail in a few
 * posts; and one chip, Music (~30% of the creators).
 */
async function scenarios(db: Awaited<ReturnType<typeof createBenchDb>>['db']): Promise<Scenario[]> {
  const name = await sql<{ display_name: string }>`
    select display_name from profiles p join privacy_settings ps on ps.user_id = p.id
    where p.is_creator and ps.profile_visibility = 'public' and length(display_name) > 10
    group by display_name having count(*) between 2 and 6 order by display_name limit 1`.execute(db);
  // on a small data set (--quick) no name is shared: any public creator's will do
  const anyName = async () =>
    (await sql<{ display_name: string }>`
      select display_name from profiles p join privacy_settings ps on ps.user_id = p.id
      where p.is_creator and ps.profile_visibility = 'public' and length(display_name) > 6 order by display_name limit 1`.execute(db)).rows[0]!;
  const displayName = (name.rows[0] ?? (await anyName())).display_name;
  const fragment = displayName.slice(2, -2).toUpperCase();
  const rare = await sql<{ w: string }>`
    select w from (select unnest(string_to_array(post_text, ' ')) as w from posts where status = 'published') x
    where w ~ '^[a-z]+$' group by w having count(*) between ${PAGE + 1} and ${PAGE * 2} order by count(*), w limit 1`.execute(db);
  return [
    { label: `display-name fragment "${fragment}" (of "${displayName}")`, q: fragment, categories: [] },
    { label: 'post word "lighthouse"', q: 'lighthouse', categories: [] },
    ...(rare.rows[0] ? [{ label: `rare post word "${rare.rows[0].w}"`, q: rare.rows[0].w, categories: [] }] : []),
    { label: 'chip Music', q: null, categories: ['Music'] },
  ];
}

/**
 * The same answer as `explore.search` for a signed-in fan — session, the page of matching posts,
 * creator cards, the three counts, liked, bookmarked, media entitlement and media variants — in
 * one hand-written statement and one round trip: the floor.
 */
function floorQuery(s: Scenario, sessionId: string): { text: string; values: unknown[] } {
  const values: unknown[] = [sessionId];
  const param = (value: unknown) => `$${values.push(value)}`;
  const visible = `p.status = 'published' and (ps.profile_visibility is null or ps.profile_visibility not in ('private', 'hidden'))`;
  const chips = s.categories.length ? `and pr.categories && ${param(s.categories)}::text[]` : '';
  const from = 'from posts p join profiles pr on pr.id = p.creator_id left join privacy_settings ps on ps.user_id = p.creator_id';
  let hits = `select p.id ${from} where ${visible} ${chips} order by p.published_at desc, p.id desc limit ${PAGE}`;
  if (s.q) {
    const pattern = param(containsPattern(s.q.toLowerCase()));
    const words = param(s.q);
    hits = `(select p.id ${from} where ${visible} ${chips} and (lower(pr.username) like ${pattern} or lower(pr.display_name) like ${pattern})
               order by p.published_at desc, p.id desc limit ${PAGE})
             union
             (select p.id ${from} where ${visible} ${chips} and p.search @@ websearch_to_tsquery('english', ${words})
               order by p.published_at desc, p.id desc limit ${PAGE})`;
  }
  const text = floorPageStatement(`from (${hits}) hits join posts p on p.id = hits.id join profiles pr on pr.id = p.creator_id`, PAGE);
  return { text, values };
}

/**
 * Explore search over 100,000 posts by 10,000 creators (realistic names and text, categories,
 * private and hidden creators), signed in as a fan: by a display-name fragment, by a word of the
 * posts, and with a category chip. The whole stack (Express, session, tRPC, Kysely, superjson)
 * against one SQL statement behind bare node:http + pg; then each app query explained.
 */
export async function benchExplore(ctx: BenchContext): Promise<Array<Figure | string>> {
  CREATORS = Math.max(1_000, Math.round(10_000 * ctx.scale));
  POSTS = Math.max(5_000, Math.round(100_000 * ctx.scale));
  FAN_NUMBER = CREATORS + 1;
  const bench = await createBenchDb();
  const out: Array<Figure | string> = [];
  try {
    const started = Date.now();
    await seedExploreData(bench.db, { creators: CREATORS, fans: FANS, posts: POSTS });
    await sql`
      insert into media_files (post_id, variant, storage_key, content_type, byte_size, width, height)
      select md5('p' || i)::uuid, v, 'posts/' || md5('p' || i)::uuid || '/' || v || '.jpg', 'image/jpeg', 100000, 1280, 720
      from generate_series(1, ${sql.lit(POSTS)}) i, unnest(array['original', 'web', 'thumb']) v`.execute(bench.db);
    await sql`
      insert into subscriptions (subscriber_id, tier_id, status, current_period_start, current_period_end, price_cents)
      select md5('u' || ${sql.lit(FAN_NUMBER)})::uuid, md5('t' || c)::uuid, 'active', now() - interval '10 days', now() + interval '20 days', 5000
      from generate_series(1, ${sql.lit(CREATORS)}, 25) c`.execute(bench.db);
    await sql`vacuum analyze media_files, subscriptions`.execute(bench.db);
    out.push(`explore search: ${POSTS} posts by ${CREATORS} creators, signed in as a fan (seeded in ${Date.now() - started} ms)`);
    // a smoke run measures two of the searches
    const SCENARIOS = (await scenarios(bench.db)).slice(0, ctx.quick ? 2 : undefined);

    const fanId = sql<string>`md5('u' || ${sql.lit(FAN_NUMBER)})::uuid`;
    const fan = await bench.db.selectFrom('profiles').select('id').where('id', '=', fanId).executeTakeFirstOrThrow();
    const token = generateSessionToken();
    await createSession(bench.db, token, fan.id);
    const headers = { cookie: `session=${token}` };

    const app = await startAppProcess(bench.url);
    const floorServer = await startFloorProcess(
      bench.url,
      SCENARIOS.map((scenario) => {
        const { text, values } = floorQuery(scenario, '$session');
        return { sql: text, values };
      }),
    );
    const pool = new pg.Pool({ connectionString: bench.url, max: 1 });
    const captured: CompiledQuery[] = [];
    const capturing = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: bench.url, max: 1 }) }),
      log: (event) => void captured.push(event.query),
    });

    try {
      for (const [index, scenario] of SCENARIOS.entries()) {
        const input = encodeURIComponent(JSON.stringify({ json: { q: scenario.q, categories: scenario.categories, limit: PAGE } }));
        const appUrl = `${app.url}/trpc/explore.search?input=${input}`;
        const floorUrl = `${floorServer.url}/?r=${index}`;

        // both answer the same page, with the fan's entitlements on it
        const appPage = (await (await fetch(appUrl, { headers })).json()) as {
          result: { data: { json: { items: { id: string; viewer: { canViewMedia: boolean } }[] } } };
        };
        const floorRows = (await (await fetch(floorUrl, { headers })).json()) as { id: string; can_view_media: boolean }[];
        const appItems = appPage.result.data.json.items;
        if (appItems.length !== PAGE && !ctx.quick) throw new Error(`${scenario.label}: the app's page is short (${appItems.length})`);
        if (appItems.map((i) => i.id).join() !== floorRows.map((r) => r.id).join()) throw new Error(`${scenario.label}: app and floor disagree on the page`);
        if (appItems.some((i, n) => i.viewer.canViewMedia !== floorRows[n]!.can_view_media)) {
          throw new Error(`${scenario.label}: app and floor disagree on the entitlements`);
        }

        const load = { connections: ctx.connections, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds, headers };
        const floor = await runLoad(floorUrl, load);
        const full = await runLoad(appUrl, load);
        out.push(loadFigure(`GET /trpc/explore.search: ${scenario.label}`, full, floor, 'floor: the same page in one statement on node:http + pg; target >= 0.65x rps, p99 <= 1.5x'));

        // the page query as the app sends it, explained with real timings
        captured.length = 0;
        await findExplorePage(capturing, { viewerId: fan.id, q: scenario.q, categories: scenario.categories, cursor: null, limit: PAGE });
        const query = captured[0]!;
        const plan = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, format text) ${query.sql}`, query.parameters as unknown[]);
        const text = plan.rows.map((r) => r['QUERY PLAN'].trim());
        const shown = text.filter((l) => /Index Scan|Index Only Scan|Bitmap Index Scan|Seq Scan|Execution Time/.test(l));
        out.push(`    plan: ${shown.map((l) => l.replace(/^->\s*/, '').replace(/\s+\(cost=[^)]*\)/, '')).join(' | ').slice(0, 400)}`);
      }
    } finally {
      await capturing.destroy();
      await pool.end();
      await floorServer.stop();
      await app.stop();
    }
  } finally {
    await bench.destroy();
  }
  return out;
}
