import { sql, type RawBuilder } from 'kysely';
import { NOTIFICATION_KIND_INFO, type ChannelChoice, type NotificationKind } from '../../common/notifications';
import type { DB } from '../../core/db/kysely';

/**
 * Which channels a user receives a kind by, decided once: the user's row of the kinds × channels
 * table (notification_preferences; no row: the kind's defaults, common/notifications.ts), with
 * e-mail and push further under the spec's master switches (notification_settings: Email
 * Notifications, Push Notifications; no row: on). A kind without a mail never goes by e-mail.
 */
export async function channelsFor(db: DB, userId: string, kind: NotificationKind): Promise<ChannelChoice> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('notification_settings as ns', 'ns.user_id', 'u.id')
    .leftJoin('notification_preferences as np', (j) => j.onRef('np.user_id', '=', 'u.id').on('np.kind', '=', kind))
    .select(['ns.email_notifications', 'ns.push_notifications', 'np.in_app', 'np.email', 'np.push'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return { inApp: false, email: false, push: false };
  const info = NOTIFICATION_KIND_INFO[kind];
  return {
    inApp: row.in_app ?? info.defaults.inApp,
    email: info.hasEmail && (row.email_notifications ?? true) && (row.email ?? info.defaults.email),
    push: (row.push_notifications ?? true) && (row.push ?? info.defaults.push),
  };
}

/**
 * `channelsFor(...).inApp` and `.push` as SQL columns, for the batched fan-out, over a statement
 * joining `notification_settings` as `ns` and this kind's `notification_preferences` as `np`.
 */
export function inAppColumn(kind: NotificationKind): RawBuilder<boolean> {
  return sql<boolean>`coalesce(np.in_app, ${NOTIFICATION_KIND_INFO[kind].defaults.inApp})`;
}
export function pushColumn(kind: NotificationKind): RawBuilder<boolean> {
  return sql<boolean>`(coalesce(ns.push_notifications, true) and coalesce(np.push, ${NOTIFICATION_KIND_INFO[kind].defaults.push}))`;
}
