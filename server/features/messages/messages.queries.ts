import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../../core/db/kysely';
import type { Database } from '../../../core/db/schema';
import { statementShape } from '../../../core/db/statement-shape';
import { messageUnlockedBy } from '../../../domain/access/messaging.queries';
import { personColumns } from '../../../domain/people/person-columns';
import { attachmentStoredKeys } from '../../../domain/messaging/attachments';

/**
 * The messages feature's SQL. Every list is one statement per page, keyset on
 * (created_at, id) (or the conversation's (last_message_at, partner_id)), so rows arriving while
 * someone pages neither repeat nor skip.
 */

/** A timestamptz as ISO-8601 UTC with microseconds (a JS Date would drop them and break keyset paging). */
export const isoMicro = (column: string): RawBuilder<string> =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export async function countUnreadMessages(db: Kysely<Database>, recipientId: string): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Messages with everything their DTO needs, as seen by `viewerId` (whose reactions are `mine`):
 * the attachment, the quoted message and its file, and the reaction counts, in one statement.
 */
export function selectMessages(db: DB, viewerId: string) {
  return db
    .selectFrom('messages as m')
    .leftJoin('message_attachments as a', 'a.id', 'm.attachment_id')
    .leftJoin('messages as r', 'r.id', 'm.reply_to_id')
    .leftJoin('message_attachments as ra', 'ra.id', 'r.attachment_id')
    .select([
      'm.id',
      'm.client_id',
      'm.sender_id',
      'm.recipient_id',
      'm.content',
      'm.reply_to_id',
      'm.price_cents',
      'm.mass_message_id',
      messageUnlockedBy('m.id', 'm.recipient_id').as('unlocked'),
      isoMicro('m.created_at').as('created_at'),
      isoMicro('m.edited_at').as('edited_at'),
      isoMicro('m.read_at').as('read_at'),
      'a.id as a_id',
      'a.kind as a_kind',
      'a.status as a_status',
      'a.content_type as a_content_type',
      'a.original_filename as a_filename',
      'a.byte_size as a_byte_size',
      'a.width as a_width',
      'a.height as a_height',
      'a.duration_seconds as a_duration',
      'a.failure_reason as a_failure',
      'r.id as r_id',
      'r.sender_id as r_sender_id',
      'r.recipient_id as r_recipient_id',
      'r.content as r_content',
      'r.price_cents as r_price_cents',
      messageUnlockedBy('r.id', 'r.recipient_id').as('r_unlocked'),
      'ra.id as ra_id',
      'ra.kind as ra_kind',
      'ra.status as ra_status',
      sql<{ emoji: string; count: number; mine: boolean }[]>`(
        select coalesce(json_agg(json_build_object('emoji', x.emoji, 'count', x.n, 'mine', x.mine)), '[]'::json)
        from (
          select mr.emoji, count(*)::int as n, bool_or(mr.user_id = ${viewerId}) as mine
          from message_reactions mr where mr.message_id = m.id group by mr.emoji
        ) x)`.as('reactions'),
    ]);
}

export type MessageRow = Awaited<ReturnType<ReturnType<typeof selectMessages>['execute']>>[number];

/** The pair of users as the conversation index (messages_pair_idx) orders them. */
const pairWhere = (a: string, b: string) =>
  sql<boolean>`least(m.sender_id, m.recipient_id) = least(${a}::uuid, ${b}::uuid)
    and greatest(m.sender_id, m.recipient_id) = greatest(${a}::uuid, ${b}::uuid)`;

/** One page of a conversation, newest first (the caller reverses it), older than the cursor. */
export function findThreadPage(db: DB, viewerId: string, partnerId: string, before: { createdAt: string; id: string } | null, limit: number) {
  return threadPage(db, { viewerId, partnerId, before: before && { createdAt: before.createdAt, id: before.id }, limit });
}

// the most read page of messages: built and compiled once per shape (first page or not)
const threadPage = statementShape(
  (db, { viewerId, partnerId, before, limit }: { viewerId: string; partnerId: string; before: { createdAt: string; id: string } | null; limit: number }) =>
    selectMessages(db, viewerId)
      .where(pairWhere(viewerId, partnerId))
      .$if(before !== null, (q) => q.where(sql<boolean>`(m.created_at, m.id) < (${before!.createdAt}::timestamptz, ${before!.id}::uuid)`))
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit),
  { literals: ['limit'] },
);

export function findMessagesByIds(db: DB, viewerId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return selectMessages(db, viewerId).where('m.id', 'in', ids).execute();
}

/** To or from the viewer, after the anchor message (by its time and id), oldest first. */
export function findMessagesSince(db: DB, viewerId: string, after: { createdAt: string; id: string }, limit: number) {
  return selectMessages(db, viewerId)
    .where((eb) => eb.or([eb('m.sender_id', '=', viewerId), eb('m.recipient_id', '=', viewerId)]))
    .where(sql<boolean>`(m.created_at, m.id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`)
    .orderBy('m.created_at', 'asc')
    .orderBy('m.id', 'asc')
    .limit(limit)
    .execute();
}

/** The facts the author and participant checks need about one message; null when unknown. */
export function findMessageFacts(db: DB, id: string) {
  return db
    .selectFrom('messages')
    .select(['id', 'sender_id', 'recipient_id', 'content', 'attachment_id', 'read_at', isoMicro('created_at').as('created_at')])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findMessageByClientId(db: DB, senderId: string, clientId: string) {
  return db.selectFrom('messages').select(['id', 'recipient_id']).where('sender_id', '=', senderId).where('client_id', '=', clientId).executeTakeFirst();
}

/**
 * One chat list page: the user's conversations, newest first, with the partner's profile, the
 * last message and the number of unread messages from that partner. One statement, served by
 * conversations_user_recent_idx (the page) and messages_unread_pair_idx (the counts).
 */
export function findChatPage(db: DB, userId: string, before: { at: string; partnerId: string } | null, limit: number) {
  return db
    .selectFrom('conversations as c')
    .innerJoin('profiles as pr', 'pr.id', 'c.partner_id')
    .leftJoin('messages as lm', 'lm.id', 'c.last_message_id')
    .leftJoin('message_attachments as la', 'la.id', 'lm.attachment_id')
    .select([
      'c.partner_id',
      isoMicro('c.last_message_at').as('last_message_at'),
      ...personColumns('pr'),
      'lm.id as lm_id',
      'lm.sender_id as lm_sender_id',
      'lm.content as lm_content',
      'la.kind as lm_kind',
      isoMicro('lm.created_at').as('lm_created_at'),
      sql<number>`(select count(*)::int from messages u
        where u.recipient_id = ${userId} and u.sender_id = c.partner_id and u.read_at is null)`.as('unread'),
    ])
    .where('c.user_id', '=', userId)
    .$if(before !== null, (q) =>
      q.where(sql<boolean>`(c.last_message_at, c.partner_id) < (${before!.at}::timestamptz, ${before!.partnerId}::uuid)`),
    )
    .orderBy('c.last_message_at', 'desc')
    .orderBy('c.partner_id', 'desc')
    .limit(limit)
    .execute();
}

/** Both sides of a conversation point at its newest message (in the message's transaction). */
export async function touchConversation(trx: DB, senderId: string, recipientId: string, messageId: string) {
  await sql`
    insert into conversations (user_id, partner_id, last_message_id, last_message_at)
    select x.u, x.p, m.id, m.created_at
    from messages m, (values (${senderId}::uuid, ${recipientId}::uuid), (${recipientId}::uuid, ${senderId}::uuid)) as x(u, p)
    where m.id = ${messageId}
    on conflict (user_id, partner_id) do update
      set last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at
      where conversations.last_message_at <= excluded.last_message_at`.execute(trx);
}

/**
 * After a message of the pair was deleted: both sides point at the newest message left, and a
 * conversation with no message left is gone from both lists.
 */
export async function refreshConversation(trx: DB, a: string, b: string) {
  await sql`
    with latest as (
      select m.id, m.created_at from messages m
      where ${pairWhere(a, b)}
      order by m.created_at desc, m.id desc limit 1
    )
    update conversations c set last_message_id = latest.id, last_message_at = latest.created_at
    from latest
    where (c.user_id, c.partner_id) in ((${a}::uuid, ${b}::uuid), (${b}::uuid, ${a}::uuid))`.execute(trx);
  await sql`
    delete from conversations c
    where (c.user_id, c.partner_id) in ((${a}::uuid, ${b}::uuid), (${b}::uuid, ${a}::uuid))
      and not exists (select 1 from messages m where ${pairWhere(a, b)})`.execute(trx);
}

/**
 * The reaction counts of one message with who reacted (only its two participants can), so each
 * participant's `mine` comes from the same statement.
 */
export async function findReactionCounts(db: DB, messageId: string) {
  return db
    .selectFrom('message_reactions')
    .select(['emoji', sql<number>`count(*)::int`.as('count'), sql<string[]>`array_agg(user_id::text)`.as('user_ids')])
    .where('message_id', '=', messageId)
    .groupBy('emoji')
    .execute();
}

/** Inserts a message; undefined when the sender's clientId was used already (a concurrent repeat won). */
export function insertMessage(
  trx: DB,
  values: {
    sender_id: string;
    recipient_id: string;
    content: string | null;
    attachment_id: string | null;
    media_type: string | null;
    reply_to_id: string | null;
    client_id: string;
    price_cents?: number | null;
  },
) {
  return trx
    .insertInto('messages')
    .values(values)
    .onConflict((oc) => oc.columns(['sender_id', 'client_id']).where('client_id', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
}

export async function updateMessageContent(db: DB, id: string, senderId: string, content: string): Promise<void> {
  await db.updateTable('messages').set({ content, edited_at: new Date() }).where('id', '=', id).where('sender_id', '=', senderId).execute();
}

/** Deletes the sender's message and its attachment row; null when it was gone, else the attachment's stored keys. */
export async function deleteMessageRow(trx: DB, id: string, senderId: string): Promise<string[] | null> {
  const deleted = await trx.deleteFrom('messages').where('id', '=', id).where('sender_id', '=', senderId).returning('attachment_id').executeTakeFirst();
  if (!deleted) return null;
  if (!deleted.attachment_id) return [];
  // a message to many's copies share one file: it goes with the last of them
  const file = await trx
    .deleteFrom('message_attachments')
    .where('id', '=', deleted.attachment_id)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('messages').select('id').where('attachment_id', '=', deleted.attachment_id))))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('mass_messages').select('id').where('attachment_id', '=', deleted.attachment_id))))
    .returning(['storage_key', 'source_key', 'ladder_keys'])
    .executeTakeFirst();
  return file ? attachmentStoredKeys(file) : [];
}

/** Removes the user's reaction with this emoji, or adds it when there was none. */
export async function toggleReaction(trx: DB, messageId: string, userId: string, emoji: string): Promise<void> {
  const removed = await trx
    .deleteFrom('message_reactions')
    .where('message_id', '=', messageId)
    .where('user_id', '=', userId)
    .where('emoji', '=', emoji)
    .returning('id')
    .executeTakeFirst();
  if (removed) return;
  await trx
    .insertInto('message_reactions')
    .values({ message_id: messageId, user_id: userId, emoji })
    .onConflict((oc) => oc.columns(['message_id', 'user_id', 'emoji']).doNothing())
    .execute();
}

/** Marks the recipient's unread messages among `ids` read, in one statement; the ones it changed. */
export function markMessagesRead(db: DB, recipientId: string, ids: string[], readAt: Date) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .updateTable('messages')
    .set({ read_at: readAt })
    .where('id', 'in', ids)
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .returning(['id', 'sender_id'])
    .execute();
}

export async function isCreator(db: DB, userId: string): Promise<boolean> {
  const row = await db.selectFrom('profiles').select('is_creator').where('id', '=', userId).executeTakeFirst();
  return row?.is_creator === true;
}
