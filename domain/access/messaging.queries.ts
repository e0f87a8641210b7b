import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../../core/db/kysely';
import { statementShape } from '../../core/db/statement-shape';
import { ownerOnlyProfileWhere } from './access';
import { activeSubscriptionExists } from '../subscriptions/active';
import { personColumns } from '../people/person-columns';

/**
 * What the messaging rule (./messaging.ts) needs about one partner, seen from `viewerId`, in one
 * statement: the profile, its visibility, the viewer's active subscription (for a 'friends'
 * profile), blocks both ways, whether the two have a conversation, and the partner's
 * show_online_status. Null when no profile matches.
 */
export async function findMessagingFacts(db: DB, viewerId: string, partner: { username: string } | { id: string }) {
  const [row] =
    'username' in partner
      ? await messagingFacts(db, { viewerId, key: partner.username.toLowerCase() }, 'username')
      : await messagingFacts(db, { viewerId, key: partner.id }, 'id');
  return row;
}

// asked before every thread page, message and reaction: compiled once per shape (by name or by id)
const messagingFacts = statementShape((db, { viewerId, key }: { viewerId: string; key: string }, by) =>
  db
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
    .where(by === 'username' ? 'pr.username' : 'pr.id', '=', key),
);

/** Whether the user lets others see them online (and typing): privacy_settings, true without a row. */
export async function showsOnlineStatus(db: DB, userId: string): Promise<boolean> {
  const row = await db.selectFrom('privacy_settings').select('show_online_status').where('user_id', '=', userId).executeTakeFirst();
  return row?.show_online_status ?? true;
}

/**
 * Whether the buyer (a column) holds a charge for the message (a column) that no refund and no
 * open dispute took back (issue 27 item 3): the SQL half of `messageFileOpen` (./messaging.ts).
 * Served by payments_message_id_idx.
 */
export function messageUnlockedBy(messageColumn: string, buyerColumn: string): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from payments uc
    where uc.message_id = ${sql.ref(messageColumn)} and uc.user_id = ${sql.ref(buyerColumn)}
      and uc.purpose = 'message_unlock' and uc.kind = 'charge' and uc.status = 'succeeded'
      and not exists (select 1 from payments ur where ur.reverses_payment_id = uc.id and ur.kind = 'refund')
      and (select count(*) filter (where ud.kind = 'dispute') - count(*) filter (where ud.kind = 'dispute_won')
           from payments ud where ud.reverses_payment_id = uc.id) <= 0)`;
}

/**
 * The attachment and, of the messages carrying it (one, or a message to many's copies), the one
 * `viewerId` sent or received, with its price and whether its recipient bought it.
 */
export function findAttachmentAudience(db: DB, attachmentId: string, viewerId: string | null) {
  return db
    .selectFrom('message_attachments as a')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('messages as vm')
          .select(['vm.id', 'vm.sender_id', 'vm.recipient_id', 'vm.price_cents', messageUnlockedBy('vm.id', 'vm.recipient_id').as('unlocked')])
          .whereRef('vm.attachment_id', '=', 'a.id')
          .where((w) => w.or([w('vm.sender_id', '=', viewerId ?? NO_ONE), w('vm.recipient_id', '=', viewerId ?? NO_ONE)]))
          .limit(1)
          .as('m'),
      (join) => join.onTrue(),
    )
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
      'm.price_cents',
      'm.unlocked',
    ])
    .where('a.id', '=', attachmentId)
    .executeTakeFirst();
}

/** Matches no user: the signed-out viewer's stand-in. */
const NO_ONE = '00000000-0000-0000-0000-000000000000';

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

/**
 * `canMessage(senderId, <recipient>)` (./messaging.ts) as SQL over the recipient id in
 * `recipientColumn`, for statements that decide for many recipients at once (a message to many):
 * no block either way, and the recipient's profile visible to the sender (not private or hidden;
 * 'friends' only when the sender subscribes to them). The agreement test holds the two together.
 */
export function mayBeMessagedBy(senderId: string, recipientColumn: string): RawBuilder<boolean> {
  const recipient = sql.ref(recipientColumn);
  return sql<boolean>`(${recipient} <> ${senderId}::uuid
    and not exists (select 1 from user_blocks mb where (mb.blocker_id = ${senderId}::uuid and mb.blocked_id = ${recipient})
      or (mb.blocker_id = ${recipient} and mb.blocked_id = ${senderId}::uuid))
    and not exists (select 1 from privacy_settings mps where mps.user_id = ${recipient}
      and (${ownerOnlyProfileWhere('mps.profile_visibility')} or (mps.profile_visibility = 'friends' and not ${activeSubscriptionExists(senderId, recipientColumn)}))))`;
}
