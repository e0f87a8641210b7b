import { refundableCents, recordReversal } from '../../domain/billing/reversals';
import { createPayout, markPayoutPaid, sendPayoutJobId } from '../../domain/earnings/payouts';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';
import { splitPayments } from '../../domain/earnings/split';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { hashPassword } from '../../server/auth/password';
import type { DB } from '../../core/db/kysely';
import type { Database } from '../../core/db/schema';
import type { Storage } from '../../core/storage/storage';
import { queueAllLadderBackfill } from '../../domain/streaming/backfill';
import { recordSubscriptions } from '../../domain/subscriptions/write';
import { BULK_FAN_COUNT, bulkFan, CREATORS, DEMO_PASSWORD, FANS, emailOf } from './cast';
import { planContent, type ContentPlan } from './content';
import { prng } from './media';
import { noMediaCache, type MediaCache } from './media-cache';
import { planPeople, type PeoplePlan } from './people';
import { insertMessaging, planMessaging, rebuildConversations } from './messaging';

export interface SeedDeps {
  db: DB;
  storage: Storage;
  log?: (line: string) => void;
  /** the moment the demo is built around (tests pin it) */
  now?: Date;
  /** where media made by an earlier seed is kept (media-cache.ts); none: everything made afresh */
  mediaCache?: MediaCache;
}

async function hasData(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('profiles').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Fills an empty database with the demo: creators of every kind, fans, tiers, subscriptions,
 * posts with real media files in storage, likes, comments and messages. Does nothing (created:
 * false) when any profile exists. Rows go in one transaction; files are written inside it, so a
 * failed write leaves no rows pointing at missing files.
 */
export async function seedDemo({ db, storage, log = () => {}, now = new Date(), mediaCache = noMediaCache }: SeedDeps): Promise<{ created: boolean }> {
  if (await hasData(db)) return { created: false };
  const started = Date.now();
  const random = prng(20261120);
  const workDir = await mkdtemp(path.join(tmpdir(), 'creator-seed-'));
  try {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const premiumTier = await db
      .selectFrom('subscription_tiers')
      .select('id')
      .where('creator_id', 'is', null)
      .where('name', '=', 'Premium')
      .executeTakeFirstOrThrow(() => new Error('The platform Premium tier is missing: run the migrations first'));
    const people = planPeople(passwordHash, premiumTier.id, now, random);
    // the chat's files need not wait for the posts' (sharp and ffmpeg, most of the seed's time)
    const [content, messaging] = await Promise.all([planContent(people, workDir, now, random, mediaCache), planMessaging(people, workDir, now, mediaCache)]);

    const created = await db.transaction().execute(async (trx) => {
      // two processes starting at once (say, `npm start` twice) must not both seed
      await sql`select pg_advisory_xact_lock(hashtext('creator-demo-seed'))`.execute(trx);
      if (await hasData(trx)) return false;
      await insertAll(trx, people, content);
      await insertMessaging(trx, messaging);
      await rebuildConversations(trx);
      await Promise.all([...content.files, ...messaging.files].map((f) => storage.put(f.key, f.bytes, f.contentType)));
      return true;
    });
    // the demo's videos stream as uploaded ones do: their HLS ladders are outbox rows, made by
    // the workers once they run (and `npm run backfill:ladders` queues any this misses)
    if (created) await queueAllLadderBackfill(db);
    if (created) printSummary(log, people, content, Date.now() - started);
    return { created };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The demo's people, their settings, tiers, subscriptions and payments (no posts, no files). */
export async function insertPeople(trx: Kysely<Database>, people: PeoplePlan): Promise<void> {
  const p = people.rows;
  await trx.insertInto('users').values(p.users).execute();
  await trx.insertInto('profiles').values(p.profiles).execute();
  await trx.insertInto('privacy_settings').values(p.privacy_settings).execute();
  await trx.insertInto('notification_settings').values(p.notification_settings).execute();
  await trx.insertInto('verification_status').values(p.verification_status).execute();
  await trx.insertInto('media_settings').values(p.media_settings).execute();
  await trx.insertInto('subscription_tiers').values(p.subscription_tiers).execute();
  await recordSubscriptions(trx, p.subscriptions);
  await trx.insertInto('payments').values(p.payments).execute();
  await seedEarnings(trx);
  await seedTrialLink(trx);
  await seedBundles(trx);
}

/** The demo's bundles (issue 27 item 5): kai's monthly Speedrunner for 3, 6 or 12 months at 10, 15 and 25 % off. */
async function seedBundles(trx: Kysely<Database>): Promise<void> {
  const tier = await trx
    .selectFrom('subscription_tiers as t')
    .innerJoin('profiles as pr', 'pr.id', 't.creator_id')
    .select('t.id')
    .where('pr.username', '=', 'kai')
    .where('t.payment_interval', '=', 'monthly')
    .executeTakeFirst();
  if (!tier) return;
  await trx
    .insertInto('tier_bundles')
    .values([3, 6, 12].map((periods, i) => ({ tier_id: tier.id, periods, percent: [10, 15, 25][i]! })))
    .execute();
}

/** The demo's free trial link (issue 27 item 5): 7 days of maya's cheapest tier, 50 claims, for 60 days. */
export const DEMO_TRIAL_CODE = 'demo-maya-7days';
async function seedTrialLink(trx: Kysely<Database>): Promise<void> {
  const tier = await trx
    .selectFrom('subscription_tiers as t')
    .innerJoin('profiles as pr', 'pr.id', 't.creator_id')
    .select(['t.id', 't.creator_id'])
    .where('pr.username', '=', 'maya')
    .orderBy('t.price_cents')
    .executeTakeFirst();
  if (!tier?.creator_id) return;
  // and an offer running for 30 days: a quarter off the first period of any of leo's tiers for new fans
  const leo = await trx.selectFrom('profiles').select('id').where('username', '=', 'leo').executeTakeFirst();
  if (leo) {
    await trx
      .insertInto('offers')
      .values({ creator_id: leo.id, tier_id: null, audience: 'new', percent: 25, starts_at: new Date(Date.now() - 24 * 60 * 60_000), ends_at: new Date(Date.now() + 30 * 24 * 60 * 60_000) })
      .execute();
  }
  await trx
    .insertInto('trial_links')
    .values({ creator_id: tier.creator_id, tier_id: tier.id, code: DEMO_TRIAL_CODE, days: 7, max_claims: 50, expires_at: new Date(Date.now() + 60 * 24 * 60 * 60_000) })
    .execute();
}

/**
 * The creators' earnings (issue 26): every demo payment split into fee and earning (the payments
 * were written above, in bulk, so they are split here as insertPayment would have), a refund,
 * built-in test payout accounts, one payout paid (ava) and one on its way (leo).
 */
async function seedEarnings(trx: Kysely<Database>): Promise<void> {
  const ids = (await trx.selectFrom('payments').select('id').execute()).map((r) => r.id);
  await splitPayments(trx, ids, DEFAULT_EARNINGS_POLICY);
  const creators = await trx.selectFrom('profiles').select(['id', 'username']).where('is_creator', '=', true).execute();
  for (const c of creators) {
    await trx
      .insertInto('payout_accounts')
      .values({ user_id: c.id, provider: 'builtin', provider_account_id: `test_acct_demo_${c.username}`, status: 'enabled' })
      .execute();
  }
  const now = new Date();
  const creatorId = (username: string) => creators.find((c) => c.username === username)?.id;
  const refunded = await trx.selectFrom('payments').select('id').where('creator_id', '=', creatorId('ava') ?? null).orderBy('created_at', 'desc').executeTakeFirst();
  // half of ava's latest payment back: a partial refund leaves the fan's access as it is
  if (refunded) {
    const amountCents = Math.max(1, Math.floor((await refundableCents(trx, refunded.id)) / 2));
    await recordReversal(trx, { paymentId: refunded.id, kind: 'refund', amountCents, providerRef: null, systemKey: 'demo-refund-ava', now });
  }
  for (const [username, paid] of [['ava', true], ['leo', false]] as const) {
    const id = creatorId(username);
    if (!id) continue;
    try {
      const { payout } = await createPayout(trx, { creatorId: id, trigger: 'scheduled', key: `demo-payout-${username}`, minimumCents: 1 }, now);
      if (paid) {
        await markPayoutPaid(trx, { payoutId: payout.id, amountCents: payout.amountCents, provider: 'builtin', transferRef: `test_tr_demo_${username}`, now });
        await trx.updateTable('outbox').set({ done_at: now }).where('job_id', '=', sendPayoutJobId(payout.id)).execute();
      }
    } catch {
      // nothing available for this creator in this run's random history: no payout to show
    }
  }
}

async function insertAll(trx: Kysely<Database>, people: PeoplePlan, content: ContentPlan): Promise<void> {
  const c = content.rows;
  await insertPeople(trx, people);
  await trx.insertInto('posts').values(c.posts).execute();
  await trx.insertInto('media_files').values(c.media_files).execute();
  await trx.insertInto('post_likes').values(c.post_likes).execute();
  // parents first: a reply's parent_id must already exist
  await trx.insertInto('comments').values(c.comments.filter((x) => !x.parent_id)).execute();
  await trx.insertInto('comments').values(c.comments.filter((x) => x.parent_id)).execute();
  await trx.insertInto('bookmarks').values(c.bookmarks).execute();
  for (const message of c.messages) await trx.insertInto('messages').values(message).execute();
  await trx.insertInto('message_reactions').values(c.message_reactions).execute();
}

function printSummary(log: (line: string) => void, people: PeoplePlan, content: ContentPlan, ms: number): void {
  const posts = content.rows.posts;
  log(
    `Demo data created in ${(ms / 1000).toFixed(1)} s: ${CREATORS.length} creators, ${FANS.length + BULK_FAN_COUNT} fans, ` +
      `${posts.length} posts (${posts.filter((x) => x.status === 'draft').length} drafts), ` +
      `${[...people.activeSubscribers.values()].reduce((n, fans) => n + fans.length, 0)} active subscriptions, ${content.files.length} media files.`,
  );
  log(`Demo accounts (password for all: ${DEMO_PASSWORD}):`);
  for (const c of CREATORS) {
    const traits = [
      'creator',
      c.verified && 'verified',
      c.premium && 'premium',
      c.visibility !== 'public' && c.visibility,
      `${people.activeSubscribers.get(c.username)?.length ?? 0} subscribers`,
    ].filter(Boolean);
    log(`  ${emailOf(c.username).padEnd(18)} ${c.displayName.padEnd(14)} ${traits.join(', ')}`);
  }
  for (const f of FANS) {
    const subs = f.subscribesTo.map((s) => (s.startsWith('expired:') ? `${s.slice(8)} (expired)` : s));
    const traits = [f.admin ? 'admin' : 'fan', subs.length ? `subscribes to ${subs.join(', ')}` : ''].filter(Boolean);
    log(`  ${emailOf(f.username).padEnd(18)} ${f.displayName.padEnd(14)} ${traits.join(', ')}`);
  }
  log(`  ${bulkFan(0).email} ... ${bulkFan(BULK_FAN_COUNT - 1).email}: ${BULK_FAN_COUNT} more fans`);
  log(`Free trial link (7 days of maya, 50 claims): /trial/${DEMO_TRIAL_CODE}; offer: 25% off leo's first period for new fans`);
}
