import { NOTIFICATION_KIND_INFO, NOTIFICATION_KINDS, type ChannelChoice, type NotificationKind } from '../../common/notifications';
import type { DB } from '../../core/db/kysely';

/** The user's kinds × channels table as set (no row: the kind's defaults), before the master switches. */
export async function preferencesOf(db: DB, userId: string): Promise<Record<NotificationKind, ChannelChoice>> {
  const rows = await db.selectFrom('notification_preferences').select(['kind', 'in_app', 'email', 'push']).where('user_id', '=', userId).execute();
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  return Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => {
      const row = byKind.get(kind);
      const d = NOTIFICATION_KIND_INFO[kind].defaults;
      return [kind, row ? { inApp: row.in_app, email: NOTIFICATION_KIND_INFO[kind].hasEmail && row.email, push: row.push } : d];
    }),
  ) as Record<NotificationKind, ChannelChoice>;
}

export async function savePreference(db: DB, userId: string, kind: NotificationKind, choice: ChannelChoice): Promise<void> {
  const values = { in_app: choice.inApp, email: NOTIFICATION_KIND_INFO[kind].hasEmail && choice.email, push: choice.push, updated_at: new Date() };
  await db
    .insertInto('notification_preferences')
    .values({ user_id: userId, kind, ...values })
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet(values))
    .execute();
}
