import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ProfileVisibility } from '../../../common/enums';
import { seedExploreData } from '../../../tests/helpers/explore-data';
import { genericPlan } from '../../../tests/helpers/generic-plan';
import { makePost, makeSubscription, makeUser, type MadeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { type TestClient } from '../../../tests/helpers/test-server';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';
import type { Database } from '../../../core/db/schema';
import { findExplorePage } from './explore.queries';

// every test starts from no users at all
const app = useFileServer({ emptyUsers: true });

const MINUTE = 60_000;
const minutesAgo = (n: number) => new Date(Date.now() - n * MINUTE);

async function creator(username: string, displayName: string, categories: string[], visibility: ProfileVisibility = 'public') {
  const user = await makeUser(app.deps.db, { username, isCreator: true, visibility });
  await app.deps.db.updateTable('profiles').set({ display_name: displayName, categories }).where('id', '=', user.id).execute();
  return user;
}
const post = (c: MadeUser, text: string, opts: Omit<Parameters<typeof makePost>[2], 'creatorId' | 'text'> = {}) =>
  makePost(app.deps.db, null, { creatorId: c.id, text, hashtags: [], ...opts });

async function searchAll(client: TestClient, input: { q?: string; categories?: ('Art' | 'Music' | 'Gaming' | 'Technology')[] }) {
  const ids: string[] = [];
  let cursor = null;
  for (let pages = 0; pages < 20; pages++) {
    const page: Awaited<ReturnType<TestClient['trpc']['explore']['search']['query']>> = await client.trpc.explore.search.query({ ...input, cursor });
    ids.push(...page.items.map((p) => p.id));
    cursor = page.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error('too many pages');
}

/** The cast: four public creators, a private and a hidden one whose names and posts would match. */
async function cast() {
  const janelle = await creator('janelle', 'Janelle Okafor', ['Music']);
  const ava = await creator('ava', 'Ava Moreau', ['Art']);
  const kai = await creator('kai', 'Kai Speedruns', ['Gaming', 'Technology']);
  const noah = await creator('noah', 'Noah Frames', ['Art', 'Music']);
  const secret = await creator('secretjan', 'Janelle Secret', ['Music', 'Art'], 'private');
  const hidden = await creator('hiddenjan', 'Janelle Hidden', ['Art', 'Gaming'], 'hidden');
  const posts = {
    janelle: await post(janelle, 'New single out tonight', { createdAt: minutesAgo(10) }),
    ava: await post(ava, 'Oil paintings from the coast', { createdAt: minutesAgo(9) }),
    kai: await post(kai, 'Any% world record attempt', { createdAt: minutesAgo(8) }),
    noah: await post(noah, 'I painted a film set', { createdAt: minutesAgo(7) }),
    secret: await post(secret, 'Secret painting by Janelle', { createdAt: minutesAgo(6) }),
    hidden: await post(hidden, 'Hidden painting by Janelle', { createdAt: minutesAgo(5) }),
    avaDraft: await post(ava, 'Unfinished painting', { createdAt: minutesAgo(4), status: 'draft' }),
  };
  return { janelle, ava, kai, noah, secret, hidden, posts };
}

describe('explore.search', () => {
  it('needs a session, with the spec words', async () => {
    await expectTrpcError(app.client().trpc.explore.search.query({}), 'UNAUTHORIZED', 'Please sign in to access the explore page');
    await expectTrpcError(app.client().trpc.explore.creators.query({}), 'UNAUTHORIZED', 'Please sign in to access the explore page');
  });

  it('finds a creator by any part of the username or display name, in any case', async () => {
    const { posts } = await cast();
    const client = await clientAs(app, (await makeUser(app.deps.db)).id);
    for (const q of ['NELL', 'okaf', 'Janelle Ok', 'JANE']) {
      expect(await searchAll(client, { q }), q).toEqual([posts.janelle.id]);
    }
    expect(await searchAll(client, { q: 'speedrun' })).toEqual([posts.kai.id]);
  });

  it('finds a post by a word of its text, stemmed, and never a draft', async () => {
    const { posts } = await cast();
    const client = await clientAs(app, (await makeUser(app.deps.db)).id);
    expect(await searchAll(client, { q: 'painting' })).toEqual([posts.noah.id, posts.ava.id]);
    expect(await searchAll(client, { q: 'COAST' })).toEqual([posts.ava.id]);
    expect(await searchAll(client, { q: 'record' })).toEqual([posts.kai.id]);
    expect(await searchAll(client, { q: 'bicycle' })).toEqual([]);
    // wildcards are taken literally, stop words match nothing
    expect(await searchAll(client, { q: '%' })).toEqual([]);
    expect(await searchAll(client, { q: '_' })).toEqual([]);
    expect(await searchAll(client, { q: 'the' })).toEqual([]);
  });

  it('combines name and text matches without duplicates', async () => {
    const { ava, posts } = await cast();
    // matches by the creator's name and by its own text
    const both = await post(ava, 'Ava at the coast again', { createdAt: minutesAgo(1) });
    const client = await clientAs(app, (await makeUser(app.deps.db)).id);
    expect(await searchAll(client, { q: 'ava' })).toEqual([both.id, posts.ava.id]);
    expect(await searchAll(client, { q: 'coast' })).toEqual([both.id, posts.ava.id]);
  });

  it('filters by the chips (any of them) and combines them with the search', async () => {
    const { posts } = await cast();
    const client = await clientAs(app, (await makeUser(app.deps.db)).id);
    expect(await searchAll(client, { categories: ['Art'] })).toEqual([posts.noah.id, posts.ava.id]);
    expect(await searchAll(client, { categories: ['Music', 'Gaming'] })).toEqual([posts.noah.id, posts.kai.id, posts.janelle.id]);
    expect(await searchAll(client, { categories: ['Technology'] })).toEqual([posts.kai.id]);
    expect(await searchAll(client, { categories: ['Music'], q: 'painting' })).toEqual([posts.noah.id]);
    expect(await searchAll(client, { categories: ['Gaming'], q: 'janelle' })).toEqual([]);
    expect(await searchAll(client, {})).toEqual([posts.noah.id, posts.kai.id, posts.ava.id, posts.janelle.id]);
  });

  it('never shows private or hidden creators, not even to themselves', async () => {
    const { secret, hidden, posts } = await cast();
    for (const viewer of [secret, hidden, await makeUser(app.deps.db)]) {
      const client = await clientAs(app, viewer.id);
      for (const input of [{ q: 'janelle' }, { q: 'secret' }, { q: 'hidden' }, { categories: ['Art' as const] }, {}]) {
        const ids = await searchAll(client, input);
        expect(ids).not.toContain(posts.secret.id);
        expect(ids).not.toContain(posts.hidden.id);
      }
      expect((await client.trpc.explore.creators.query({ q: 'janelle' })).map((c) => c.username)).toEqual(['janelle']);
    }
  });

  it('pages stably through name and text matches, 8 at a time', async () => {
    const luna = await creator('luna', 'Luna Sketches', ['Art']);
    const other = await creator('other', 'Other Person', ['Music']);
    const expected: string[] = [];
    // 20 matches interleaved in time: luna's posts match by name, other's by the word 'sketch'
    for (let i = 0; i < 20; i++) {
      const made = i % 2 === 0 ? await post(luna, `Day ${i}`, { createdAt: minutesAgo(100 - i) }) : await post(other, `A quick sketch ${i}`, { createdAt: minutesAgo(100 - i) });
      expected.unshift(made.id);
    }
    await post(other, 'Not matching', { createdAt: minutesAgo(1) });
    // posts in the same instant are ordered by id
    await app.deps.db.updateTable('posts').set({ published_at: minutesAgo(200) }).where('id', 'in', expected.slice(16)).execute();
    const tail = [...expected.slice(16)].sort().reverse();
    const ordered = [...expected.slice(0, 16), ...tail];

    const client = await clientAs(app, (await makeUser(app.deps.db)).id);
    const one = await client.trpc.explore.search.query({ q: 'sketch' });
    expect(one.items).toHaveLength(8);
    await post(luna, 'Fresh one', { createdAt: new Date() });
    const two = await client.trpc.explore.search.query({ q: 'sketch', cursor: one.nextCursor });
    const three = await client.trpc.explore.search.query({ q: 'sketch', cursor: two.nextCursor });
    expect([...one.items, ...two.items, ...three.items].map((p) => p.id)).toEqual(ordered);
    expect(three.items).toHaveLength(4);
    expect(three.nextCursor).toBeNull();
  });

  it('locks premium posts for viewers without a subscription', async () => {
    const ava = await creator('ava', 'Ava Moreau', ['Art']);
    const premium = await post(ava, 'Premium painting', { isPremium: true });
    const fan = await makeUser(app.deps.db);
    const subscriber = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: subscriber.id, creatorId: ava.id });
    const [locked] = (await (await clientAs(app, fan.id)).trpc.explore.search.query({ q: 'painting' })).items;
    expect(locked).toMatchObject({ id: premium.id, viewer: { canViewMedia: false }, media: { url: null } });
    const [open] = (await (await clientAs(app, subscriber.id)).trpc.explore.search.query({ q: 'painting' })).items;
    expect(open).toMatchObject({ id: premium.id, viewer: { canViewMedia: true } });
  });

  it('runs the same number of queries whatever the page size', async () => {
    const ava = await creator('ava', 'Ava Moreau', ['Art']);
    for (let i = 0; i < 20; i++) await post(ava, `Sketch ${i}`, { isPremium: true, createdAt: minutesAgo(30 - i) });
    const client = await clientAs(app, (await makeUser(app.deps.db)).id);
    // the page with its counts, the viewer's state, entitlements and media (the session aside);
    // a search in two: its matches, then their cards
    const cases: Array<[{ q?: string; categories?: Array<'Art'> }, number]> = [[{ q: 'ava' }, 2], [{ categories: ['Art'] }, 1], [{}, 1]];
    for (const [input, statements] of cases) {
      const counts: number[] = [];
      for (const limit of [1, 8, 20]) {
        app.queries.reset();
        expect((await client.trpc.explore.search.query({ ...input, limit })).items).toHaveLength(limit);
        counts.push(app.queries.withoutSession().length);
      }
      expect(counts).toEqual([statements, statements, statements]);
    }
  });

  it('is served by the trigram and full-text indexes on realistic data, never by scanning a table', async () => {
    // 10,000 creators and 20,000 posts of realistic text, vacuumed and analysed (on a few rows
    // any plan is cheap, and a planner rightly prefers reading the table)
    await seedExploreData(app.deps.db, { creators: 10_000, fans: 10, posts: 20_000 });
    // one creator with a rare name (creator 42; ids are md5('u' || n))
    await app.deps.db.updateTable('profiles').set({ display_name: 'Quenby Zanzibar' }).where('id', '=', sql<string>`md5('u42')::uuid`).execute();
    // what each card reads beside the page, for every 5th post (enough rows for a planner to
    // weigh): stored variants, and a like, a bookmark and a comment of one of the 10 fans (users
    // 10,001-10,010; the first is the viewer below); and subscriptions, two per creator
    await sql`
      insert into subscriptions (subscriber_id, tier_id, status, current_period_start, current_period_end, price_cents)
      select md5('u' || i)::uuid, md5('t' || (1 + (i * 7 + k * 13) % 10000))::uuid, 'active', now() - interval '1 day', now() + interval '29 days', 5000
      from generate_series(1, 10010) i, generate_series(1, 2) k
      on conflict do nothing`.execute(app.deps.db);
    await sql`
      insert into media_files (post_id, variant, storage_key, content_type, byte_size)
      select md5('p' || i)::uuid, v, 'posts/' || i || '/' || v, 'image/jpeg', 1000
      from generate_series(1, 20000, 5) i, unnest(array['original', 'web', 'thumb']) v`.execute(app.deps.db);
    for (const table of ['post_likes', 'bookmarks'] as const) {
      await sql`
        insert into ${sql.table(table)} (post_id, user_id)
        select md5('p' || i)::uuid, md5('u' || (10001 + i % 10))::uuid from generate_series(1, 20000, 5) i`.execute(app.deps.db);
    }
    await sql`
      insert into comments (post_id, user_id, comment_text)
      select md5('p' || i)::uuid, md5('u' || (10001 + i % 10))::uuid, 'Nice' from generate_series(1, 20000, 5) i`.execute(app.deps.db);
    // and pay-per-view unlocks of the same posts by the same fans (the access rule's twin reads them)
    await sql`
      insert into payments (id, amount_cents, provider, status, purpose, user_id)
      select md5('pay' || i)::uuid, 5000, 'builtin', 'succeeded', 'post_unlock', md5('u' || (10001 + i % 10))::uuid
      from generate_series(1, 20000, 5) i`.execute(app.deps.db);
    await sql`
      insert into post_unlocks (post_id, fan_id, payment_id)
      select md5('p' || i)::uuid, md5('u' || (10001 + i % 10))::uuid, md5('pay' || i)::uuid from generate_series(1, 20000, 5) i`.execute(app.deps.db);
    await sql`vacuum analyze profiles, media_files, post_likes, bookmarks, comments, subscriptions, payments, post_unlocks`.execute(app.deps.db);
    const viewerId = (await sql<{ id: string }>`select md5('u10001')::uuid as id`.execute(app.deps.db)).rows[0]!.id;
    const rare = await sql<{ w: string }>`
      select w from (select unnest(string_to_array(post_text, ' ')) as w from posts where status = 'published') x
      group by w having count(*) between 2 and 3 order by w limit 1`.execute(app.deps.db);
    const captured: CompiledQuery[] = [];
    const pool = new pg.Pool({ connectionString: app.deps.config.DATABASE_URL, max: 1 });
    const capturing = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => void captured.push(event.query) });
    try {
      const cases = {
        name: { q: 'zanzib', categories: [] },
        rareWord: { q: rare.rows[0]!.w, categories: [] },
        commonWord: { q: 'new', categories: [] },
        chips: { q: null, categories: ['Art', 'Music'] },
        chipsAndWord: { q: 'lighthouse', categories: ['Technology'] },
      };
      const plans: Record<string, string> = {};
      const generic: Record<string, string> = {};
      for (const [name, input] of Object.entries(cases)) {
        captured.length = 0;
        const rows = await findExplorePage(capturing, { ...input, viewerId, cursor: null, limit: 8 });
        expect(rows.length, name).toBeGreaterThan(0);
        const query = captured[0]!;
        const { rows: plan } = await pool.query<{ 'QUERY PLAN': string }>(`explain ${query.sql}`, query.parameters as unknown[]);
        plans[name] = plan.map((r) => r['QUERY PLAN']).join('\n');
        // a page without a searched word runs as a prepared statement, and may be planned without its values
        if (input.q === null) generic[name] = await genericPlan(app.deps.config.DATABASE_URL, query);
      }
      for (const [name, plan] of Object.entries(plans)) expect(plan, name).not.toMatch(/Seq Scan/);
      expect(plans.name).toMatch(/Bitmap Index Scan on profiles_(username|display_name)_trgm_idx/);
      expect(plans.rareWord).toContain('Bitmap Index Scan on posts_search_idx');
      // a common word or a chip: newest first down the feed index, stopping after a page
      expect(plans.commonWord).toContain('Index Scan using posts_feed_idx');
      expect(plans.chips).toContain('Index Scan using posts_feed_idx');
      expect(generic.chips).toContain('Index Scan using posts_feed_idx');
      expect(generic.chips).not.toMatch(/Seq Scan|Sort Key: posts_1\.published_at/);
    } finally {
      await capturing.destroy();
    }
  });
});

describe('explore.creators', () => {
  it('returns cards of public creators matching the name and the chips', async () => {
    const { janelle, noah } = await cast();
    const fan = await makeUser(app.deps.db);
    const [subscriber] = [await makeUser(app.deps.db)];
    await makeSubscription(app.deps.db, { subscriberId: subscriber!.id, creatorId: janelle.id });
    const client = await clientAs(app, fan.id);
    expect(await client.trpc.explore.creators.query({ q: 'OKAF' })).toEqual([
      {
        id: janelle.id,
        username: 'janelle',
        displayName: 'Janelle Okafor',
        avatarUrl: null,
        categories: ['Music'],
        isVerified: false,
        isPremium: false,
        subscriberCount: 1,
      },
    ]);
    expect((await client.trpc.explore.creators.query({ categories: ['Music'] })).map((c) => c.id).sort()).toEqual([janelle.id, noah.id].sort());
    expect(await client.trpc.explore.creators.query({ q: 'zzz' })).toEqual([]);
  });
});
