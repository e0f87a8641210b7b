import type { NotificationKind } from '../../common/notifications';
import type { DB } from '../../core/db/kysely';
import { channelsFor } from './channels';

/**
 * Which e-mail a user has agreed to, decided once for every sender (worker mail jobs, billing,
 * messages). Security mail (e-mail confirmation, password reset, new sign-in, two-factor changes,
 * data export links) is not asked about: it always goes.
 *   - 'activity': mail about what happens on the platform (a new message while offline, a new
 *     subscriber, receipts and renewal reminders) goes only with email_notifications on;
 *   - 'marketing': only with marketing_emails on.
 * A user without a notification_settings row has the defaults of the spec: everything on.
 */
export type EmailConsentKind = 'activity' | 'marketing';

export async function wantsEmail(db: DB, userId: string, kind: EmailConsentKind, notification?: NotificationKind): Promise<boolean> {
  // a mail that is a notification's e-mail (issue 28) also needs that kind's e-mail box ticked
  if (kind === 'activity' && notification) return (await channelsFor(db, userId, notification)).email;
  const row = await db
    .selectFrom('notification_settings')
    .select(['email_notifications', 'marketing_emails'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return true;
  return kind === 'activity' ? row.email_notifications : row.marketing_emails;
}
