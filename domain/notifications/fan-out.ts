import { sql } from 'kysely';
import { fanOutPostJobId } from '../../common/jobs';
import type { DB } from '../../core/db/kysely';
import { addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import { isOwnerOnlyProfile } from '../access/access';
import { activeSubscriptionWhere } from '../subscriptions/active';
import { inAppColumn, pushColumn } from './channels';
import { newPostGroupKey } from './notify';
import { addPushSends } from './push-sends';

/** Subscribers told per fan-out job by default (NOTIFY_FANOUT_BATCH_SIZE): one insert of this many rows, then the next batch's job. */
export const FAN_OUT_BATCH = 1000;

/**
 * A post became published: its creator's subscribers are told through the batched fan-out
 * (`fan-out-post` on the `notify-fanout` queue), never in the publishing request or the media
 * job. Call it in the transaction that publishes the post; dispatch the entry after the commit.
 */
export function notifyNewPost(trx: DB, postId: string): Promise<QueuedEntry> {
  return addToOutbox(trx, { queue: 'notify-fanout', name: 'fan-out-post', data: { postId, after: null }, jobId: fanOutPostJobId(postId, null) });
}

export interface FanOutBatch {
  /** the last subscriber of this batch (the next job starts after it), or null: this was the last batch */
  next: string | null;
  /** users whose unread count changed (rows shown in their centre) */
  shown: string[];
  /** (notification, browser) pairs pushed: a push_sends row each, sent by the batch's one `send-push-batch` in `jobs` */
  pushes: number;
  /** the outbox rows written with the batch (the next batch's, then its pushes'): dispatch them after the commit */
  jobs: QueuedEntry[];
}

export interface FanOutOptions {
  /** subscribers per batch (NOTIFY_FANOUT_BATCH_SIZE) */
  size: number;
  /** the server can push (VAPID keys set): the batch writes its pushes' rows */
  push: boolean;
}

/**
 * One batch of a post's fan-out, in one transaction: the next `size` active subscribers of its
 * creator after `after` (by id), each told once (the row's group key is the post: a retried batch
 * writes nothing twice), with the outbox rows of the next batch and of its pushes (issue 44: queued
 * only in Redis after the batch, a Redis that forgot them ended the fan-out and lost its pushes;
 * issue 50: the pushes are push_sends rows sent by one job, push-sends.ts).
 * The fan-out keeps no cursor of its own: the pending row of the next batch is it, and the relay
 * queues it again whatever Redis forgets. Only people who may see the post are told: it must still
 * be published and its creator's profile not owner-only; active subscribers see the rest (premium,
 * 'friends').
 */
export function fanOutBatch(db: DB, postId: string, after: string | null, now: Date, opts: FanOutOptions): Promise<FanOutBatch | null> {
  return db.transaction().execute((trx) => fanOutIn(trx, postId, after, now, opts));
}

async function fanOutIn(db: DB, postId: string, after: string | null, now: Date, opts: FanOutOptions): Promise<FanOutBatch | null> {
  const post = await db
    .selectFrom('posts')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id')
    .select(['posts.creator_id', 'posts.status', 'ps.profile_visibility'])
    .where('posts.id', '=', postId)
    .executeTakeFirst();
  if (!post || post.status !== 'published' || isOwnerOnlyProfile(post.profile_visibility ?? null)) return null;
  // Per tier, the next `size` active subscribers after `after` in id order (an index-only walk of
  // subscriptions_tier_subscriber_active_idx that stops there), then the first `size` of those
  // across the creator's few tiers: a batch reads at most tiers x size rows however many fans the
  // creator has. Over the join, every batch sorted all of the creator's subscribers (bench/scale.ts).
  const fans = await db
    .selectFrom('subscription_tiers as t')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('subscriptions as s')
          .select('s.subscriber_id')
          .whereRef('s.tier_id', '=', 't.id')
          .where(activeSubscriptionWhere('s'))
          .where('s.subscriber_id', '<>', post.creator_id)
          .$if(after !== null, (qb) => qb.where('s.subscriber_id', '>', after!))
          .orderBy('s.subscriber_id')
          .limit(opts.size)
          .as('s'),
      (join) => join.onTrue(),
    )
    .select('s.subscriber_id')
    .distinct()
    .where('t.creator_id', '=', post.creator_id)
    .orderBy('s.subscriber_id')
    .limit(opts.size)
    .execute();
  const ids = fans.map((f) => f.subscriber_id);
  if (ids.length === 0) return { next: null, shown: [], pushes: 0, jobs: [] };
  const key = newPostGroupKey(postId);
  await sql`insert into notifications (user_id, kind, actor_id, subject_type, subject_id, group_key, shown, created_at, last_at)
    select u.id, 'new-post', ${post.creator_id}::uuid, 'post', ${postId}, ${key}, ${inAppColumn('new-post')}, ${now}, ${now}
    from unnest(${ids}::uuid[]) as u(id)
    left join notification_settings ns on ns.user_id = u.id
    left join notification_preferences np on np.user_id = u.id and np.kind = 'new-post'
    where ${inAppColumn('new-post')} or ${pushColumn('new-post')}
    on conflict (user_id, group_key) where group_key is not null do nothing`.execute(db);
  const rows = await sql<{ id: string; user_id: string; shown: boolean; read: boolean; subscription_id: string | null }>`
    select n.id, n.user_id, n.shown, n.read_at is not null as read, case when ${pushColumn('new-post')} then ps.id end as subscription_id
    from notifications n
    left join notification_settings ns on ns.user_id = n.user_id
    left join notification_preferences np on np.user_id = n.user_id and np.kind = 'new-post'
    left join push_subscriptions ps on ps.user_id = n.user_id
    where n.group_key = ${key} and n.user_id = any(${ids}::uuid[])`.execute(db);
  const shown = new Set<string>();
  const pushes: { notificationId: string; subscriptionId: string }[] = [];
  for (const r of rows.rows) {
    if (r.shown && !r.read) shown.add(r.user_id);
    if (opts.push && r.subscription_id && !r.read) pushes.push({ notificationId: r.id, subscriptionId: r.subscription_id });
  }
  const next = ids.length === opts.size ? ids[ids.length - 1]! : null;
  // the next batch goes to the front of the queue: behind this batch's pushes (and every earlier
  // batch's) the last rows of a 10,000-subscriber post waited 374 s instead of seconds (bench notify-fanout)
  const nextJob = next
    ? [await addToOutbox(db, { queue: 'notify-fanout', name: 'fan-out-post', data: { postId, after: next }, jobId: fanOutPostJobId(postId, next), options: { lifo: true } })]
    : [];
  // one job for the batch's pushes (issue 50: a job per push sent the last of 10,000 after 52 s)
  const pushJobs = await addPushSends(db, fanOutPostJobId(postId, after), pushes);
  return { next, shown: [...shown], pushes: pushes.length, jobs: [...nextJob, ...pushJobs] };
}

/** Unread counts of several users in one query (the fan-out tells each of them). */
export async function unreadCounts(db: DB, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('notifications')
    .select(['user_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('user_id', 'in', userIds)
    .where('shown', '=', true)
    .where('read_at', 'is', null)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
}
