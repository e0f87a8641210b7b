import { randomUUID } from 'node:crypto';
import { sql, type SelectType } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../core/db/kysely';
import { migrateDown, migrateToLatest } from '../../core/db/migrate';
import { databaseColumns, type Database } from '../../core/db/schema';
import { createTestDb, useTestDb } from '../helpers/test-db';

/**
 * The columns whose TS type admits null. The types below make this list fail to compile when it
 * disagrees with schema.ts, and the test compares it with the database, so all three agree.
 */
type NullableColumn<T> = { [K in keyof T & string]: null extends SelectType<T[K]> ? K : never }[keyof T & string];
type NullableLists = { [T in keyof Database]: ReadonlyArray<NullableColumn<Database[T]>> };
type ListsAll<L extends NullableLists> = {
  [T in keyof Database]: [NullableColumn<Database[T]>] extends [L[T][number]] ? true : ['missing', T];
};
const NULLABLE = {
  users: ['email_verified_at', 'suspended_at'],
  sessions: ['user_agent', 'ip'],
  email_tokens: ['used_at'],
  totp_credentials: ['enabled_at', 'last_used_step'],
  recovery_codes: ['used_at'],
  data_exports: ['storage_key', 'byte_size', 'failure_reason', 'ready_at'],
  storage_deletions: [],
  profiles: ['avatar_url', 'bio', 'avatar_pending_id', 'avatar_failure'],
  privacy_settings: ['visibility_before_hidden'],
  notification_settings: [],
  verification_status: ['identity_test_verified_at'],
  media_settings: ['watermark_text'],
  content_settings: [],
  posts: ['title', 'post_text', 'media_kind', 'original_filename', 'failure_reason', 'optimistic_id', 'published_at', 'processing_run', 'processing_heartbeat_at', 'publish_at', 'unlock_price_cents', 'unlock_mode', 'pinned_at'],
  post_unlocks: ['revoked_at'],
  media_files: ['width', 'height', 'duration_seconds'],
  video_ladders: ['thumbnails'],
  picture_mark_issues: [],
  forensic_issues: [],
  leak_traces: ['requested_by', 'leak_key', 'verdict', 'confidence', 'identified_user_id', 'finished_at'],
  uploads: ['post_id', 'upload_group', 'group_position', 'group_size', 'source_key'],
  post_files: ['failure_reason'],
  post_likes: [],
  comments: ['parent_id'],
  bookmarks: [],
  subscription_tiers: ['creator_id', 'description', 'discount_percentage', 'archived_at'],
  subscriptions: ['past_due_since', 'grace_until', 'next_tier_id', 'provider_subscription_id', 'reminded_period_end', 'next_price_cents', 'creator_unavailable_at', 'trial_ends_at', 'bundle_periods'],
  trial_links: ['disabled_at'],
  trial_claims: ['subscription_id'],
  offers: ['tier_id', 'disabled_at'],
  tier_bundles: [],
  subscription_billing_retries: [],
  subscribers: [],
  payments: ['user_id', 'tier_id', 'creator_id', 'subscription_id', 'provider_ref', 'idempotency_key', 'reverses_payment_id', 'system_key', 'tip_message', 'message_id', 'receipt_number'],
  outbox: ['relayed_at', 'done_at', 'failed_at', 'last_error'],
  billing_events: [],
  refund_requests: ['requested_by', 'completed_at'],
  ledger_accounts: ['code', 'owner_id', 'provider'],
  journal_entries: ['reason', 'payment_id', 'payout_id', 'refund_request_id'],
  journal_lines: ['available_at'],
  ledger_month_totals: [],
  reconciliation_mismatches: [],
  payout_accounts: [],
  payment_cards: ['payment_method_id', 'brand', 'last4'],
  test_cards: [],
  pending_charges: ['post_id', 'message_id', 'tip_message', 'payment_id'],
  payouts: ['creator_id', 'transfer_ref', 'failure_reason', 'settled_at'],
  messages: ['content', 'media_key', 'media_type', 'reply_to_id', 'edited_at', 'read_at', 'client_id', 'attachment_id', 'price_cents', 'mass_message_id'],
  mass_messages: ['tier_id', 'content', 'attachment_id', 'price_cents', 'cursor', 'finished_at', 'stopped_total'],
  message_reactions: [],
  message_attachments: [
    'source_key', 'storage_key', 'content_type', 'width', 'height', 'duration_seconds', 'failure_reason', 'processing_run', 'processing_heartbeat_at',
    'vault_key', 'ladder',
  ],
  conversations: ['last_message_id'],
  user_blocks: [],
  message_reports: ['message_id', 'sender_id', 'content', 'closed_at', 'closed_by', 'evidence_key', 'evidence_type', 'evidence_kind', 'evidence_name', 'resolution'],
  report_views: ['admin_id'],
  notifications: ['actor_id', 'subject_id', 'group_key', 'read_at'],
  notification_preferences: [],
  push_subscriptions: [],
  push_sends: ['sent_at'],
} as const satisfies NullableLists;
const nullableListIsComplete: { [T in keyof Database]: true } = {} as ListsAll<typeof NULLABLE>;
void nullableListIsComplete;

async function sqlState(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

let counter = 0;
async function makeUser(db: DB, username = `user${++counter}`) {
  const user = await db
    .insertInto('users')
    .values({ email: `${username}@example.test`, password_hash: 'x' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('profiles')
    .values({ id: user.id, username, display_name: `Name ${username}`, date_of_birth: '1990-01-01' })
    .execute();
  return user.id;
}

async function makePost(db: DB, creatorId: string, postText = 'hello', hashtags: string[] = []) {
  const post = await db
    .insertInto('posts')
    .values({ creator_id: creatorId, post_text: postText, hashtags, status: 'published', target_status: 'published', published_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return post.id;
}

const t = useTestDb();

describe('columns', () => {
  it('match databaseColumns and the nullability of the TS types', async () => {
    const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: 'YES' | 'NO' }>`
      select table_name, column_name, is_nullable from information_schema.columns
      where table_schema = 'public' and table_name not like 'kysely_migration%'`.execute(t.db);

    const inDb: Record<string, string[]> = {};
    const nullableInDb: Record<string, string[]> = {};
    for (const r of rows) {
      (inDb[r.table_name] ??= []).push(r.column_name);
      if (r.is_nullable === 'YES') (nullableInDb[r.table_name] ??= []).push(r.column_name);
    }
    const sorted = (o: Record<string, readonly string[]>) =>
      Object.fromEntries(Object.keys(o).sort().map((k) => [k, [...(o[k] ?? [])].sort()]));

    expect(sorted(inDb)).toEqual(sorted(databaseColumns));
    const expectedNullable = Object.fromEntries(Object.entries(NULLABLE).filter(([, cols]) => cols.length > 0));
    expect(sorted(nullableInDb)).toEqual(sorted(expectedNullable));
  });

  it('use the agreed types for dates, money, sizes and search', async () => {
    const { rows } = await sql<{ col: string; type: string; generated: string }>`
      select table_name || '.' || column_name as col, format_type(a.atttypid, a.atttypmod) as type, c.is_generated as generated
      from information_schema.columns c
      join pg_attribute a on a.attrelid = (c.table_schema || '.' || c.table_name)::regclass and a.attname = c.column_name
      where c.table_schema = 'public'
        and table_name || '.' || column_name in ('profiles.date_of_birth', 'subscription_tiers.price_cents', 'payments.amount_cents',
          'media_files.byte_size', 'media_files.duration_seconds', 'posts.search', 'posts.hashtags', 'profiles.custom_links',
          'users.created_at', 'users.id')`.execute(t.db);
    const types = Object.fromEntries(rows.map((r) => [r.col, r.type]));
    expect(types).toEqual({
      'profiles.date_of_birth': 'date',
      'subscription_tiers.price_cents': 'bigint',
      'payments.amount_cents': 'bigint',
      'media_files.byte_size': 'bigint',
      'media_files.duration_seconds': 'numeric',
      'posts.search': 'tsvector',
      'posts.hashtags': 'text[]',
      'profiles.custom_links': 'jsonb',
      'users.created_at': 'timestamp with time zone',
      'users.id': 'uuid',
    });
    expect(rows.find((r) => r.col === 'posts.search')?.generated).toBe('ALWAYS');
  });
});

describe('constraints', () => {
  it('allow one like per user and post', async () => {
    const creator = await makeUser(t.db);
    const fan = await makeUser(t.db);
    const post = await makePost(t.db, creator);
    await t.db.insertInto('post_likes').values({ post_id: post, user_id: fan }).execute();
    expect(await sqlState(t.db.insertInto('post_likes').values({ post_id: post, user_id: fan }).execute())).toBe('23505');
  });

  it('keep usernames unique regardless of case and well-formed', async () => {
    await makeUser(t.db, 'jane.doe');
    expect(await sqlState(makeUser(t.db, 'jane.doe'))).toBe('23505');
    expect(['23505', '23514']).toContain(await sqlState(makeUser(t.db, 'Jane.Doe')));
    expect(await sqlState(makeUser(t.db, 'has space'))).toBe('23514');
    expect(await sqlState(makeUser(t.db, 'a'.repeat(31)))).toBe('23514');
  });

  it('keep e-mails unique and lower-case', async () => {
    const values = { email: 'once@example.test', password_hash: 'x' };
    await t.db.insertInto('users').values(values).execute();
    expect(await sqlState(t.db.insertInto('users').values(values).execute())).toBe('23505');
    expect(await sqlState(t.db.insertInto('users').values({ ...values, email: 'Upper@example.test' }).execute())).toBe('23514');
  });

  it('reject values outside the enums and ranges', async () => {
    const creator = await makeUser(t.db);
    const fan = await makeUser(t.db);
    const post = await makePost(t.db, creator);
    const tier = { creator_id: creator, name: 'Gold', price_cents: 10_00, payment_interval: 'monthly' } as const;

    const rejected = {
      postStatus: t.db.insertInto('posts').values({ creator_id: creator, status: 'live' as never, target_status: 'draft' }).execute(),
      targetStatus: t.db
        .insertInto('posts')
        .values({ creator_id: creator, status: 'processing', target_status: 'failed' as never })
        .execute(),
      watermark: t.db.insertInto('media_settings').values({ creator_id: creator, watermark_position: 'middle' as never }).execute(),
      interval: t.db.insertInto('subscription_tiers').values({ ...tier, payment_interval: 'daily' as never }).execute(),
      discount: t.db.insertInto('subscription_tiers').values({ ...tier, discount_percentage: 101 }).execute(),
      price: t.db.insertInto('subscription_tiers').values({ ...tier, price_cents: -1_00 }).execute(),
      visibility: t.db.insertInto('privacy_settings').values({ user_id: fan, profile_visibility: 'secret' as never }).execute(),
      role: t.db.updateTable('users').set({ role: 'root' as never }).where('id', '=', fan).execute(),
      variant: t.db
        .insertInto('media_files')
        .values({ post_id: post, variant: 'huge' as never, storage_key: 'k', content_type: 'image/jpeg', byte_size: 1 })
        .execute(),
      byteSize: t.db
        .insertInto('media_files')
        .values({ post_id: post, variant: 'web', storage_key: 'k', content_type: 'image/jpeg', byte_size: -1 })
        .execute(),
      blankComment: t.db.insertInto('comments').values({ post_id: post, user_id: fan, comment_text: '   ' }).execute(),
      longComment: t.db.insertInto('comments').values({ post_id: post, user_id: fan, comment_text: 'x'.repeat(2001) }).execute(),
      emptyMessage: t.db.insertInto('messages').values({ sender_id: fan, recipient_id: creator, content: ' ' }).execute(),
      selfMessage: t.db.insertInto('messages').values({ sender_id: fan, recipient_id: fan, content: 'hi' }).execute(),
    };
    const states = Object.fromEntries(
      await Promise.all(Object.entries(rejected).map(async ([name, p]) => [name, await sqlState(p)] as const)),
    );
    expect(states).toEqual(Object.fromEntries(Object.keys(rejected).map((name) => [name, '23514'])));

    const { id: tierId } = await t.db.insertInto('subscription_tiers').values(tier).returning('id').executeTakeFirstOrThrow();
    const selfSubscription = t.db
      .insertInto('subscribers')
      .values({ creator_id: creator, subscriber_id: creator, tier_id: tierId, status: 'active' })
      .execute();
    expect(await sqlState(selfSubscription)).toBe('23514');
    expect(await sqlState(t.db.deleteFrom('subscription_tiers').where('id', '=', tierId).execute())).toBeUndefined();
  });

  it('has exactly one platform Premium tier at R150 a month', async () => {
    const premium = await t.db
      .selectFrom('subscription_tiers')
      .selectAll()
      .where('name', '=', 'Premium')
      .where('creator_id', 'is', null)
      .execute();
    expect(premium).toHaveLength(1);
    expect(premium[0]).toMatchObject({ price_cents: '15000', payment_interval: 'monthly' });
    const again = t.db
      .insertInto('subscription_tiers')
      .values({ creator_id: null, name: 'Premium', price_cents: 1_00, payment_interval: 'weekly' })
      .execute();
    expect(await sqlState(again)).toBe('23505');
  });

  // issue 11: a tier someone subscribed to is archived by the service, never deleted; a deleted
  // creator takes their tiers' subscriptions along and leaves the fans' payments detached
  it('cascade a deleted creator to their tiers and subscriptions, detaching payments', async () => {
    const creator = await makeUser(t.db);
    const fan = await makeUser(t.db);
    const { id: tierId } = await t.db
      .insertInto('subscription_tiers')
      .values({ creator_id: creator, name: 'Fan club', price_cents: 5_00, payment_interval: 'weekly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('subscribers').values({ creator_id: creator, subscriber_id: fan, tier_id: tierId, status: 'active' }).execute();
    const { id: subscriptionId } = await t.db
      .insertInto('subscriptions')
      .values({ subscriber_id: fan, tier_id: tierId, status: 'active', current_period_start: new Date(), current_period_end: new Date(Date.now() + 60_000), price_cents: 5_00 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('payments')
      .values({ user_id: fan, creator_id: creator, tier_id: tierId, subscription_id: subscriptionId, description: 'Fan club', amount_cents: 5_00, provider: 'builtin', status: 'succeeded' })
      .execute();
    await t.db.deleteFrom('users').where('id', '=', creator).execute();
    expect(await t.db.selectFrom('subscriptions').select('id').where('subscriber_id', '=', fan).execute()).toEqual([]);
    expect(await t.db.selectFrom('subscribers').select('id').where('subscriber_id', '=', fan).execute()).toEqual([]);
    expect(await t.db.selectFrom('payments').select(['creator_id', 'tier_id', 'subscription_id', 'description']).where('user_id', '=', fan).execute()).toEqual([
      { creator_id: null, tier_id: null, subscription_id: null, description: 'Fan club' },
    ]);
  });

  it('cascade a deleted user to their profile, posts, likes and sessions', async () => {
    const doomed = await makeUser(t.db);
    const other = await makeUser(t.db);
    const ownPost = await makePost(t.db, doomed);
    const otherPost = await makePost(t.db, other);
    await t.db.insertInto('post_likes').values({ post_id: otherPost, user_id: doomed }).execute();
    await t.db.insertInto('post_likes').values({ post_id: ownPost, user_id: other }).execute();
    await t.db.insertInto('sessions').values({ id: randomUUID(), user_id: doomed, expires_at: new Date(Date.now() + 60_000) }).execute();
    const parent = await t.db
      .insertInto('comments')
      .values({ post_id: otherPost, user_id: doomed, comment_text: 'parent' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('comments').values({ post_id: otherPost, user_id: other, parent_id: parent.id, comment_text: 'child' }).execute();

    await t.db.deleteFrom('users').where('id', '=', doomed).execute();

    const count = async (table: 'profiles' | 'posts' | 'post_likes' | 'sessions' | 'comments', column: string, value: string) =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where(column as never, '=', value as never)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('profiles', 'id', doomed)).toBe(0);
    expect(await count('posts', 'creator_id', doomed)).toBe(0);
    expect(await count('post_likes', 'user_id', doomed)).toBe(0);
    expect(await count('post_likes', 'post_id', ownPost)).toBe(0);
    expect(await count('sessions', 'user_id', doomed)).toBe(0);
    // replies to a deleted comment go with it
    expect(await count('comments', 'post_id', otherPost)).toBe(0);
  });

  it('keep a reply when the message it quoted is deleted', async () => {
    const a = await makeUser(t.db);
    const b = await makeUser(t.db);
    const quoted = await t.db
      .insertInto('messages')
      .values({ sender_id: a, recipient_id: b, content: 'first' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const reply = await t.db
      .insertInto('messages')
      .values({ sender_id: b, recipient_id: a, content: 'reply', reply_to_id: quoted.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.deleteFrom('messages').where('id', '=', quoted.id).execute();
    const kept = await t.db.selectFrom('messages').select('reply_to_id').where('id', '=', reply.id).executeTakeFirst();
    expect(kept).toEqual({ reply_to_id: null });
  });
});

describe('search', () => {
  it('finds posts by stemmed words and by hashtag', async () => {
    const creator = await makeUser(t.db);
    const post = await makePost(t.db, creator, 'Running shoes for the #weekend', ['weekend', 'marathon']);
    const find = async (query: string) =>
      (
        await t.db
          .selectFrom('posts')
          .select('id')
          .where(sql<boolean>`search @@ websearch_to_tsquery('english', ${query})`)
          .execute()
      ).map((r) => r.id);
    expect(await find('run')).toContain(post);
    expect(await find('marathon')).toContain(post);
    expect(await find('bicycle')).not.toContain(post);
  });

  it('serves name searches from the trigram indexes', async () => {
    await makeUser(t.db, 'janelle');
    const plans = await t.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const explain = async (query: ReturnType<typeof sql>) =>
        (await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx)).rows.map((r) => r['QUERY PLAN']).join('\n');
      return {
        similar: await explain(sql`select id from profiles where lower(display_name) % 'jan'`),
        contains: await explain(sql`select id from profiles where lower(display_name) like '%ane%'`),
        username: await explain(sql`select id from profiles where lower(username) like '%nell%'`),
      };
    });
    expect(plans.similar).toContain('profiles_display_name_trgm_idx');
    expect(plans.contains).toContain('profiles_display_name_trgm_idx');
    expect(plans.username).toContain('profiles_username_trgm_idx');

    const { rows } = await sql<{ username: string }>`select username from profiles where lower(display_name) like '%anell%'`.execute(t.db);
    expect(rows.map((r) => r.username)).toContain('janelle');
  });
});

describe('migrations', () => {
  it('go all the way down to an empty schema and up again', async () => {
    const fresh = await createTestDb();
    try {
      await migrateDown(fresh.db, 'all');
      const left = await sql<{ name: string }>`
        select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relname not like 'kysely_migration%'
        union all select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'
        union all select extname from pg_extension where extname <> 'plpgsql'`.execute(fresh.db);
      expect(left.rows).toEqual([]);

      await migrateToLatest(fresh.db);
      const tables = await sql<{ n: string }>`
        select count(*) as n from information_schema.tables where table_schema = 'public' and table_name not like 'kysely_migration%'`.execute(
        fresh.db,
      );
      expect(Number(tables.rows[0]?.n)).toBe(Object.keys(databaseColumns).length);
    } finally {
      await fresh.destroy();
    }
  });
});
