import { sql } from 'kysely';
import { deliverNotificationJobId, deliverNotificationsJobId } from '../../common/jobs';
import type { NotificationKind, NotificationSubjectType } from '../../common/notifications';
import type { DB } from '../../core/db/kysely';
import { addManyToOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import { inAppColumn, pushColumn } from './channels';

/** A new post's subject and the fan-out's group key: one row per subscriber and post. */
export const newPostGroupKey = (postId: string) => `post:${postId}`;
/** Messages from one sender make one row while it is unread. */
export const messageGroupKey = (senderId: string) => `message:${senderId}`;

export interface Notification {
  /** who is told */
  userId: string;
  kind: NotificationKind;
  /** who did it; never told about their own act. Null: the platform (a payout, a failed renewal of a deleted creator) */
  actorId: string | null;
  /** what the row is about, and so where it leads (server/features/notifications: subject links) */
  subject: { type: NotificationSubjectType; id: string | null };
  /**
   * Events sharing a key make one row (likes of a post on one day, messages of one sender while
   * unread): it counts its actors and moves to the top, unread again. None: a row of its own.
   */
  group?: { key: string; restartWhenRead?: boolean };
  /** the event's time (the caller's clock) */
  at: Date;
  /** a push only after this long, and only if the row is still unread then (a message read in its open thread is not pushed) */
  pushDelayMs?: number;
}

/**
 * The one way anything is told to a user (issue 28). Call it in the transaction of the change
 * that causes the event (so the row exists exactly when the event does) and hand the returned
 * entry to `dispatchOutbox` after the commit, like any outbox job (billing effects carry it in
 * `jobs`). It writes the row unless the user turned every channel of this kind off, and an outbox
 * row for its delivery (worker/jobs/notifications.ts): the user's tabs hear the unread count and,
 * with push on for this kind, each browser gets a push. A grouped row pushes once per burst (its
 * first event; a later one only updates the centre). Returns null when nothing is to be told.
 */
export async function notify(trx: DB, n: Notification): Promise<QueuedEntry | null> {
  const { userId, ...rest } = n;
  return (await notifyMany(trx, { ...rest, userIds: [userId] }))[0] ?? null;
}

/**
 * notify() for many users told of the same event (a message to many's batch), in two statements
 * whatever their number: each user's channels (channelsFor's rule as SQL columns), their rows
 * written or grouped, and their delivery's outbox rows. Returns the entries to dispatch.
 *
 * `batch` (a key unique to the batch and the same when it is written again, e.g. a message to
 * many's batch job id): one `deliver-notifications` for all its rows instead of a
 * `deliver-notification` each. Issue 50 item 4: 10,000 recipients were 10,000 jobs, each taken,
 * run and its outbox row committed apart, and a like waited behind their commits.
 */
export async function notifyMany(trx: DB, n: Omit<Notification, 'userId'> & { userIds: readonly string[]; batch?: string }): Promise<QueuedEntry[]> {
  const userIds = [...new Set(n.userIds)].filter((id) => id !== n.actorId);
  if (userIds.length === 0) return [];
  const restart = n.group?.restartWhenRead ?? false;
  const rows = await sql<{ id: string; actor_count: number; push: boolean }>`
    with told as (
      select u.id, ${inAppColumn(n.kind)} as in_app, ${pushColumn(n.kind)} as push
      from users u
      left join notification_settings ns on ns.user_id = u.id
      left join notification_preferences np on np.user_id = u.id and np.kind = ${n.kind}
      where u.id = any(${userIds}::uuid[])
    ), written as (
      insert into notifications (user_id, kind, actor_id, subject_type, subject_id, group_key, shown, created_at, last_at)
      select t.id, ${n.kind}, ${n.actorId}::uuid, ${n.subject.type}, ${n.subject.id}, ${n.group?.key ?? null}, t.in_app, ${n.at}::timestamptz, ${n.at}::timestamptz
      from told t where t.in_app or t.push
      on conflict (user_id, group_key) where group_key is not null do update set
        actor_id = excluded.actor_id,
        actor_count = ${restart ? sql`case when notifications.read_at is null then notifications.actor_count + 1 else 1 end` : sql`notifications.actor_count + 1`},
        shown = excluded.shown,
        read_at = null,
        last_at = excluded.last_at
      returning id, user_id, actor_count
    )
    select w.id, w.actor_count, t.push from written w join told t on t.id = w.user_id`.execute(trx);
  if (n.batch !== undefined) {
    if (rows.rows.length === 0) return [];
    return addManyToOutbox(trx, [
      {
        queue: 'notifications' as const,
        name: 'deliver-notifications' as const,
        data: {
          notificationIds: rows.rows.map((r) => r.id),
          pushIds: rows.rows.filter((r) => r.push && r.actor_count === 1).map((r) => r.id),
          ...(n.pushDelayMs ? { pushDelayMs: n.pushDelayMs } : {}),
        },
        jobId: deliverNotificationsJobId(n.batch),
      },
    ]);
  }
  return addManyToOutbox(
    trx,
    rows.rows.map((row) => ({
      queue: 'notifications' as const,
      name: 'deliver-notification' as const,
      data: { notificationId: row.id, push: row.push && row.actor_count === 1, ...(n.pushDelayMs ? { pushDelayMs: n.pushDelayMs } : {}) },
      jobId: deliverNotificationJobId(row.id, row.actor_count),
    })),
  );
}

/** These rows of the user read (the thread they opened, the post they looked at): returns how many changed. */
export async function markGroupRead(db: DB, userId: string, groupKey: string, at: Date): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('user_id', '=', userId)
    .where('group_key', '=', groupKey)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The centre's badge: rows shown and not read. */
export async function unreadNotificationCount(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('shown', '=', true)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
