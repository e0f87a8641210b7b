import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';
import { activeSubscriptionExists } from '../subscriptions/active';
import { personColumns } from '../people/person-columns';

/**
 * What the messaging rule (./messaging.ts) needs about one partner, seen from `viewerId`, in one
 * statement: the profile, its visibility, the viewer's active subscription (for a 'friends'
 * profile), blocks both ways, whether the two have a conversation, and the partner's
 * show_online_status. Null when no profile matches.
 */
export function findMessagingFacts(db: DB, viewerId: string, partner: { username: string } | { id: string }) {
  return db
    .selectFrom('profiles as pr')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'pr.id')
    .select([
      ...personColumns('pr'),
      'ps.profile_visibility',
      sql<boolean>`coalesce(ps.show_online_status, true)`.as('show_online_status'),
      activeSubscriptionExists(viewerId, 'pr.id').as('viewer_is_subscriber'),
      sql<boolean>`exists (select 1 from user_blocks b where b.blocker_id = ${viewerId} and b.blocked_id = pr.id)`.as('blocked_by_viewer'),
      sql<boolean>`exists (select 1 from user_blocks b where b.blocker_id = pr.id and b.blocked_id = ${viewerId})`.as('blocked_by_partner'),
      sql<boolean>`exists (select 1 from conversations c where c.user_id = ${viewerId} and c.partner_id = pr.id)`.as('has_conversation'),
    ])
    .$if('username' in partner, (q) => q.where('pr.username', '=', (partner as { username: string }).username.toLowerCase()))
    .$if('id' in partner, (q) => q.where('pr.id', '=', (partner as { id: string }).id))
    .executeTakeFirst();
}

/** Whether the user lets others see them online (and typing): privacy_settings, true without a row. */
export async function showsOnlineStatus(db: DB, userId: string): Promise<boolean> {
  const row = await db.selectFrom('privacy_settings').select('show_online_status').where('user_id', '=', userId).executeTakeFirst();
  return row?.show_online_status ?? true;
}

/** The attachment and who may see it: its owner and the other participant of the message carrying it. */
export function findAttachmentAudience(db: DB, attachmentId: string) {
  return db
    .selectFrom('message_attachments as a')
    .leftJoin('messages as m', 'm.attachment_id', 'a.id')
    .select([
      'a.id',
      'a.owner_id',
      'a.status',
      'a.storage_key',
      'a.content_type',
      'a.original_filename',
      'a.byte_size',
      'a.kind',
      'm.sender_id',
      'm.recipient_id',
    ])
    .where('a.id', '=', attachmentId)
    .executeTakeFirst();
}

/** Of these users, the ones with a block between them and `userId`, either way (one query). */
export async function findBlockedEitherWay(db: DB, userId: string, others: string[]): Promise<Set<string>> {
  if (others.length === 0) return new Set();
  const rows = await db
    .selectFrom('user_blocks')
    .select(['blocker_id', 'blocked_id'])
    .where((w) =>
      w.or([
        w.and([w('blocker_id', '=', userId), w('blocked_id', 'in', others)]),
        w.and([w('blocked_id', '=', userId), w('blocker_id', 'in', others)]),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => (r.blocker_id === userId ? r.blocked_id : r.blocker_id)));
}
