import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { isNotificationKind, notificationText, type NotificationDto, type NotificationKind, type PushPayload } from '../../common/notifications';
import type { DB } from '../../core/db/kysely';
import { profileVisibleToAllWhere, visiblePostWhere } from '../access/access';

/**
 * What a row of the centre or a push is made of: the row, its actor's names, and whether its
 * subject may still be seen by the reader, decided by the one access rule's SQL twins (a post:
 * visiblePostWhere; a profile: seen by everyone), so a row about a deleted post or a creator gone
 * private says so instead of leading to a 404.
 */
function subjectAvailable(viewerId: string | RawBuilder<string>) {
  return sql<boolean>`case n.subject_type
    when 'post' then exists (select 1 from posts left join privacy_settings ps on ps.user_id = posts.creator_id
      where posts.id::text = n.subject_id and ${visiblePostWhere(viewerId)})
    when 'user' then exists (select 1 from profiles sp left join privacy_settings ps on ps.user_id = sp.id
      where sp.id::text = n.subject_id and (n.kind = 'message' or ${profileVisibleToAllWhere()}))
    else true end`;
}

export interface NotificationRowsQuery {
  userId: string;
  kind?: NotificationKind | null;
  /** keyset: rows older than this (last_at as ISO with microseconds, id) */
  before?: { at: string; id: string } | null;
  limit: number;
  /** one row by id (the push job) instead of a page */
  id?: string;
}

/** Rows with their actor and whether `viewer` may still see their subject. */
function notificationRows(db: DB, viewer: string | RawBuilder<string>) {
  return db
    .selectFrom('notifications as n')
    .leftJoin('profiles as ap', 'ap.id', 'n.actor_id')
    .select([
      'n.id', 'n.kind', 'n.actor_count', 'n.subject_type', 'n.subject_id', 'n.read_at', 'n.last_at', 'n.user_id',
      'ap.username', 'ap.display_name', 'ap.avatar_url',
      sql<string>`to_char(n.last_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('cursor_at'),
      subjectAvailable(viewer).as('available'),
    ]);
}

/**
 * Rows by id, each as its own user reads it (a fan-out batch's pushes: one query for the batch
 * instead of one per push, the same rule for its subject).
 */
export function findNotificationRowsById(db: DB, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return notificationRows(db, sql<string>`n.user_id`).where(sql<SqlBool>`n.id = any(${ids}::uuid[])`).execute();
}

/** One page of the user's shown rows, newest event first, or one row (`id`, shown or not). */
export function findNotificationRows(db: DB, q: NotificationRowsQuery) {
  return notificationRows(db, q.userId)
    .where('n.user_id', '=', q.userId)
    .$if(q.id !== undefined, (qb) => qb.where('n.id', '=', q.id!))
    .$if(q.id === undefined, (qb) => qb.where('n.shown', '=', true))
    .$if(Boolean(q.kind), (qb) => qb.where('n.kind', '=', q.kind!))
    .$if(Boolean(q.before), (qb) => qb.where(sql<SqlBool>`(n.last_at, n.id) < (${q.before!.at}::timestamptz, ${q.before!.id}::uuid)`))
    .orderBy('n.last_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(q.limit)
    .execute();
}
export type NotificationRow = Awaited<ReturnType<typeof findNotificationRows>>[number];

/** Where a row leads (a path of the SPA), or null when its subject is gone or hidden from the reader. */
export function notificationHref(row: NotificationRow): string | null {
  if (!row.available) return null;
  switch (row.subject_type) {
    case 'post':
      return `/post/${row.subject_id}`;
    case 'user':
      if (!row.username) return null;
      return row.kind === 'message' ? `/messages/${row.username}` : `/${row.username}`;
    case 'subscription':
      return '/settings/account/subscriptions';
    case 'payout':
      // the creator's Earnings tab lists payouts with their state and a failure's reason
      return '/create?tab=earnings';
    case 'payment':
      return '/settings/account/payment';
    default:
      return null;
  }
}

export function toNotificationDto(row: NotificationRow): NotificationDto | null {
  if (!isNotificationKind(row.kind)) return null;
  return {
    id: row.id,
    kind: row.kind,
    actor: row.username ? { username: row.username, displayName: row.display_name ?? row.username, avatarUrl: row.avatar_url } : null,
    actorCount: row.actor_count,
    subject: { type: row.subject_type as NotificationDto['subject']['type'], id: row.subject_id },
    href: notificationHref(row),
    read: row.read_at !== null,
    at: row.cursor_at,
  };
}

/**
 * A push: what happened and who (the sentence of the centre), never a message's text or a
 * post's; a click opens the row's screen, or the centre when its subject is gone.
 */
export function pushPayloadOf(row: NotificationRow): PushPayload | null {
  if (!isNotificationKind(row.kind)) return null;
  return {
    title: 'CreatorHub',
    body: notificationText(row.kind, row.display_name ?? row.username ?? null, row.actor_count),
    url: notificationHref(row) ?? '/notifications',
    tag: row.id,
  };
}
