import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';
import { splitPayments } from '../../domain/earnings/split';
import { withKeysDropped } from './bulk-load';

/**
 * The data of issue 50 item 5 at `factor` of its full size (1: 1,000,000 posts by 20,000
 * creators, 10,000,000 likes, 2,000,000 subscriptions, one creator with 200,000 subscribers,
 * 5,000,000 messages), in SQL. Every user's own share is the same at every factor (a creator has
 * 50 posts, a post 10 likes, a fan 10 subscriptions, a conversation 50 messages, the measured fan
 * 20 conversations); only the tables grow, which is what a page must not notice.
 *
 * Users are numbered: creators 0..C-1 (creator 0 has every fan as a subscriber), fans C..C+F-1
 * (fan 0, user C, is the one the bench signs in as). Ids are md5 of the number, so any statement
 * can name a row without reading it back.
 */
export interface ScaleSize {
  factor: number;
  creators: number;
  fans: number;
  posts: number;
  /** conversations between fans other than the measured one (50 messages each) */
  pairs: number;
}

export const MESSAGES_PER_CONVERSATION = 50;
export const MY_CONVERSATIONS = 20;
export const LIKES_PER_POST = 10;
/** each fan's subscriptions besides creator 0 (the last of them lapsed) */
const OTHER_SUBSCRIPTIONS = 9;

export function scaleSize(factor: number): ScaleSize {
  return {
    factor,
    creators: Math.max(20, Math.round(20_000 * factor)),
    fans: Math.max(200, Math.round(200_000 * factor)),
    posts: Math.max(1_000, Math.round(1_000_000 * factor)),
    pairs: Math.max(100, Math.round(100_000 * factor)),
  };
}

const user = (n: string) => sql.raw(`md5('u' || (${n}))::uuid`);

export interface ScaleCounts {
  posts: number;
  likes: number;
  subscriptions: number;
  bigCreatorSubscribers: number;
  messages: number;
  journalLines: number;
}

/** Seeds `size` into a migrated, empty database; returns what it holds. */
export async function seedScale(db: DB, size: ScaleSize, log: (line: string) => void): Promise<ScaleCounts> {
  const { creators: C, fans: F, posts: P, pairs } = size;
  const U = C + F;
  const step = async (what: string, run: () => Promise<unknown>) => {
    const t0 = performance.now();
    await run();
    log(`    ${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  await sql`set synchronous_commit = off`.execute(db);
  // one clock for every statement, so a conversation's last_message_at is its last message's time
  const now = sql`${new Date().toISOString()}::timestamptz`;

  await step('users, profiles, privacy, tiers', async () => {
    await sql`insert into users (id, email, password_hash, email_verified_at)
      select ${user('i')}, 'u' || i || '@scale.test', 'x', now() from generate_series(0, ${sql.lit(U - 1)}) i`.execute(db);
    await sql`insert into profiles (id, username, display_name, date_of_birth, is_creator, is_verified, is_premium, categories)
      select ${user('i')}, case when i < ${sql.lit(C)} then 'creator' || i else 'fan' || (i - ${sql.lit(C)}) end,
             case when i < ${sql.lit(C)} then 'Creator ' || i else 'Fan ' || (i - ${sql.lit(C)}) end,
             '1990-01-01', i < ${sql.lit(C)}, i % 50 = 0, i % 7 = 0,
             case when i < ${sql.lit(C)} and i % 3 = 0 then '{Music}'::text[] else '{}'::text[] end
      from generate_series(0, ${sql.lit(U - 1)}) i`.execute(db);
    // 2% of creators private and 1% hidden, as in the feed bench: their posts stay out of lists
    await sql`insert into privacy_settings (user_id, profile_visibility)
      select ${user('i')}, case when i % 50 = 3 then 'private' when i % 100 = 7 then 'hidden' else 'public' end
      from generate_series(0, ${sql.lit(C - 1)}) i`.execute(db);
    await sql`insert into subscription_tiers (id, creator_id, name, price_cents, payment_interval)
      select md5('t' || i)::uuid, ${user('i')}, 'VIP Club', 5000, 'monthly' from generate_series(0, ${sql.lit(C - 1)}) i`.execute(db);
  });

  await withKeysDropped(db, ['posts', 'media_files', 'post_likes', 'subscriptions', 'messages', 'conversations', 'comments', 'bookmarks'], async () => {
    // creator c's posts are i = c, c + C, c + 2C...; its every 20th a draft, every 4th premium;
    // one post every 30 s, creators interleaved; every 50th post says "lighthouse" (Explore)
    await step(`${P} posts`, () =>
      sql`insert into posts (id, creator_id, title, post_text, hashtags, is_premium, status, target_status, media_kind, created_at, updated_at, published_at)
        select md5('p' || i)::uuid, ${user(`i % ${C}`)}, 'Post ' || i,
               'Text of post ' || i || case when i % 50 = 7 then ' by the lighthouse' else '' end || ' #scale', '{scale}',
               (i / ${sql.lit(C)}) % 4 = 1, s, s, 'image', t, t, t
        from generate_series(0, ${sql.lit(P - 1)}) i,
             lateral (select case when (i / ${sql.lit(C)}) % 20 = 19 then 'draft' else 'published' end as s,
                             ${now} - (i * 30 || ' seconds')::interval as t) x`.execute(db),
    );
    await step('media files', () =>
      sql`insert into media_files (post_id, variant, storage_key, content_type, byte_size, width, height)
        select md5('p' || i)::uuid, v, 'posts/' || md5('p' || i)::uuid || '/' || v || '.jpg', 'image/jpeg', 100000, 1280, 720
        from generate_series(0, ${sql.lit(P - 1)}) i, unnest(array['original', 'web', 'thumb', 'preview']) v
        where v <> 'preview' or (i / ${sql.lit(C)}) % 4 = 1`.execute(db),
    );
    // 10 likes a post from 10 different fans (never fan 0, whose likes follow), a comment on every 4th
    const stride = Math.floor((F - 1) / (LIKES_PER_POST + 1));
    await step(`${P * LIKES_PER_POST} likes`, async () => {
      await sql`insert into post_likes (post_id, user_id)
        select md5('p' || i)::uuid, ${user(`${C} + 1 + (i * 7 + k * ${stride}) % ${F - 1}`)}
        from generate_series(0, ${sql.lit(P - 1)}) i, generate_series(1, ${sql.lit(LIKES_PER_POST)}) k`.execute(db);
      // fan 0 likes every 3rd post and bookmarks every 7th, so a page carries their state
      await sql`insert into post_likes (post_id, user_id) select md5('p' || i)::uuid, ${user(String(C))} from generate_series(0, ${sql.lit(P - 1)}, 3) i`.execute(db);
      await sql`insert into bookmarks (user_id, post_id) select ${user(String(C))}, md5('p' || i)::uuid from generate_series(0, ${sql.lit(P - 1)}, 7) i`.execute(db);
      await sql`insert into comments (post_id, user_id, comment_text)
        select md5('p' || i)::uuid, ${user(`${C} + 1 + i % ${F - 1}`)}, 'Comment on ' || i from generate_series(0, ${sql.lit(P - 1)}, 4) i`.execute(db);
    });
    // every fan subscribes to creator 0 and to 9 others (the 9th lapsed yesterday)
    await step(`${F * (OTHER_SUBSCRIPTIONS + 1)} subscriptions`, () =>
      sql`insert into subscriptions (subscriber_id, tier_id, status, current_period_start, current_period_end, price_cents)
        select ${user(`${C} + f`)}, md5('t' || c)::uuid, 'active', now() - interval '10 days',
               case when k = ${sql.lit(OTHER_SUBSCRIPTIONS)} then now() - interval '1 day' else now() + interval '20 days' end, 5000
        from generate_series(0, ${sql.lit(F - 1)}) f, generate_series(0, ${sql.lit(OTHER_SUBSCRIPTIONS)}) k,
             lateral (select case when k = 0 then 0 else 1 + (f * 31 + k * 97) % ${sql.lit(C - 1)} end as c) pick`.execute(db),
    );
    // conversation j is between fans a and b, 50 messages alternating, one a minute, every 20th
    // unread; fan 0 has 20 (with the last 20 fans), the other fans `pairs` among themselves
    await step(`${(pairs + MY_CONVERSATIONS) * MESSAGES_PER_CONVERSATION} messages and their conversations`, async () => {
      const conversations = sql`
        select j, ${user(`${C}`)} as a, ${user(`${C} + ${F} - 1 - j`)} as b from generate_series(0, ${sql.lit(MY_CONVERSATIONS - 1)}) j
        union all
        select j, ${user(`${C} + 1 + (j - ${MY_CONVERSATIONS}) % (${F} - ${MY_CONVERSATIONS + 1})`)},
                  ${user(`${C} + 1 + (j - ${MY_CONVERSATIONS} + 1) % (${F} - ${MY_CONVERSATIONS + 1})`)}
        from generate_series(${sql.lit(MY_CONVERSATIONS)}, ${sql.lit(MY_CONVERSATIONS + pairs - 1)}) j`;
      await sql`insert into messages (id, sender_id, recipient_id, content, created_at, read_at)
        select md5('m' || j || '-' || k)::uuid, case when k % 2 = 0 then a else b end, case when k % 2 = 0 then b else a end,
               'Message ' || k || ' of conversation ' || j, at, case when k % 20 = 1 then null else at end
        from (${conversations}) c, generate_series(1, ${sql.lit(MESSAGES_PER_CONVERSATION)}) k,
             lateral (select ${now} - ((${sql.lit(MESSAGES_PER_CONVERSATION)} - k) || ' minutes')::interval - (j || ' seconds')::interval as at) t`.execute(db);
      // both sides point at the conversation's newest message (k = 50), as touchConversation keeps them
      await sql`insert into conversations (user_id, partner_id, last_message_id, last_message_at)
        select x.u, x.p, md5('m' || j || '-' || ${sql.lit(MESSAGES_PER_CONVERSATION)})::uuid, ${now} - (j || ' seconds')::interval
        from (${conversations}) c, lateral (values (a, b), (b, a)) x(u, p)`.execute(db);
    });
  }, log);
  await step('vacuum analyze', () => sql`vacuum analyze`.execute(db));

  const count = async (q: string) => Number((await sql<{ n: string }>`${sql.raw(q)}`.execute(db)).rows[0]!.n);
  return {
    posts: await count('select count(*) as n from posts'),
    likes: await count('select count(*) as n from post_likes'),
    subscriptions: await count('select count(*) as n from subscriptions'),
    bigCreatorSubscribers: await count(`select count(*) as n from subscriptions where tier_id = md5('t0')::uuid and status = 'active' and current_period_end > now()`),
    messages: await count('select count(*) as n from messages'),
    journalLines: 0,
  };
}

/**
 * This month's charge of every active subscriber of creator 0, each split into its journal (the
 * provider's money, the fee, the creator's earning) by the app's own `splitPayments`, so the
 * ledger balances as the app's would; a refund of every 20th. Returns the journal lines written.
 */
export async function seedEarnings(db: DB, size: ScaleSize, log: (line: string) => void): Promise<number> {
  const t0 = performance.now();
  const creator = user('0');
  await sql`insert into payout_accounts (user_id, provider, provider_account_id, status) values (${creator}, 'builtin', 'test_acct_scale', 'enabled')`.execute(db);
  const ids = (
    await sql<{ id: string }>`
      insert into payments (user_id, tier_id, creator_id, subscription_id, amount_cents, provider, status, kind, system_key, created_at)
      select s.subscriber_id, s.tier_id, ${creator}, s.id, 5000, 'builtin', 'succeeded', 'charge', 'scale-' || s.id,
             now() - (row_number() over (order by s.subscriber_id) * ${Math.round((20 * 86_400_000) / size.fans)}) * interval '1 millisecond'
      from subscriptions s where s.tier_id = md5('t0')::uuid and s.status = 'active' returning id`.execute(db)
  ).rows.map((r) => r.id);
  // the split reads payments per charge (its reversals): planned on a table the statistics still
  // call empty, each batch of the full size's 200,000 charges scanned it per row (a minute a batch)
  await sql`analyze payments`.execute(db);
  for (let i = 0; i < ids.length; i += 2_000) await db.transaction().execute((trx) => splitPayments(trx, ids.slice(i, i + 2_000), DEFAULT_EARNINGS_POLICY));
  const refunds = (
    await sql<{ id: string }>`
      insert into payments (user_id, tier_id, creator_id, amount_cents, provider, status, kind, reverses_payment_id, system_key, created_at)
      select user_id, tier_id, creator_id, -amount_cents, provider, 'succeeded', 'refund', id, 'scale-refund-' || id, created_at + interval '1 day'
      from payments where kind = 'charge' and creator_id = ${creator} and abs(hashtext(id::text)) % 20 = 0 returning id`.execute(db)
  ).rows.map((r) => r.id);
  for (let i = 0; i < refunds.length; i += 2_000) await db.transaction().execute((trx) => splitPayments(trx, refunds.slice(i, i + 2_000)));
  await sql`analyze payments, journal_lines, journal_entries`.execute(db);
  const lines = Number((await sql<{ n: string }>`select count(*) as n from journal_lines`.execute(db)).rows[0]!.n);
  log(`    ${ids.length} charges and ${refunds.length} refunds of creator 0 (${lines} journal lines): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return lines;
}
