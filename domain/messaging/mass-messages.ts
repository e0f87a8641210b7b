import { sql } from 'kysely';
import type { MessageDto } from '../../common/message-dtos';
import { attachmentForViewer } from './message-view';
import { massMessageJobId } from '../../common/jobs';
import { fromCents } from '../../common/money';
import { readCents } from '../../core/db/cents';
import type { MassAudience } from '../../common/paid-message-schemas';
import type { DB } from '../../core/db/kysely';
import { addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import { mayBeMessagedBy } from '../access/messaging.queries';
import { notifyMessages } from '../notifications/content';
import { activeSubscriptionWhere } from '../subscriptions/active';
import { attachmentRowToDto, findAttachment } from './attachments';

/** Recipients written per batch: one transaction with the cursor (a crash loses at most this, redone). */
export const MASS_MESSAGE_BATCH = 500;

/**
 * The ids of an audience of one creator's fans (issue 27 item 4), as SQL over column `id`:
 * - active: their active subscribers; tier: those of one tier;
 * - expired: fans who subscribed once and hold no active subscription now (win back);
 * - buyers: fans who tipped or bought something of theirs (a charge that went through).
 */
export function audienceSql(creatorId: string, audience: MassAudience, tierId: string | null) {
  switch (audience) {
    case 'active':
    case 'tier':
      return sql`select distinct s.subscriber_id as id from subscriptions s join subscription_tiers t on t.id = s.tier_id
        where t.creator_id = ${creatorId}::uuid and ${activeSubscriptionWhere('s')}
        ${audience === 'tier' ? sql`and s.tier_id = ${tierId}::uuid` : sql``}`;
    case 'expired':
      return sql`select s.subscriber_id as id from subscriptions s join subscription_tiers t on t.id = s.tier_id
        where t.creator_id = ${creatorId}::uuid group by s.subscriber_id having not bool_or(${activeSubscriptionWhere('s')})`;
    case 'buyers':
      return sql`select distinct p.user_id as id from payments p
        where p.creator_id = ${creatorId}::uuid and p.user_id is not null and p.kind = 'charge' and p.status = 'succeeded'
          and p.purpose in ('tip', 'post_unlock', 'message_unlock')`;
  }
}

export interface AudienceCounts {
  active: number;
  expired: number;
  buyers: number;
  tiers: { id: string; name: string; count: number }[];
}

/** How many fans each audience reaches now, as the rule of delivery counts them (blocks and privacy left out). */
export async function countAudiences(db: DB, creatorId: string): Promise<AudienceCounts> {
  const count = (audience: MassAudience, tierId: string | null = null) =>
    sql<string>`(select count(*) from (${audienceSql(creatorId, audience, tierId)}) r where ${mayBeMessagedBy(creatorId, 'r.id')})`;
  const totals = await sql<{ active: string; expired: string; buyers: string }>`select ${count('active')} as active, ${count('expired')} as expired, ${count('buyers')} as buyers`.execute(db);
  const tiers = await sql<{ id: string; name: string; count: string }>`
    select t.id, t.name, (select count(*) from (select distinct s.subscriber_id as id from subscriptions s
      where s.tier_id = t.id and ${activeSubscriptionWhere('s')}) r where ${mayBeMessagedBy(creatorId, 'r.id')}) as count
    from subscription_tiers t where t.creator_id = ${creatorId}::uuid and t.archived_at is null order by t.price_cents, t.id`.execute(db);
  const row = totals.rows[0]!;
  return {
    active: Number(row.active),
    expired: Number(row.expired),
    buyers: Number(row.buyers),
    tiers: tiers.rows.map((t) => ({ id: t.id, name: t.name, count: Number(t.count) })),
  };
}

export interface DeliveredBatch {
  /** the messages this batch wrote (as each recipient sees them), for the events after the commit */
  messages: MessageDto[];
  notices: QueuedEntry[];
  /** the next batch's outbox row, written with this batch (null when done): dispatch it after the commit */
  next: QueuedEntry | null;
  /** no recipient left: the message to many is sent */
  done: boolean;
}

/**
 * One batch of a message to many, in one transaction: the row locked (two runs of the job take
 * turns), the next MASS_MESSAGE_BATCH audience members after its cursor, those the creator may
 * message now (`mayBeMessagedBy`: blocks, privacy) each given an ordinary message in their own
 * thread (unique per (mass message, recipient): a batch redone writes nothing twice), both sides'
 * conversations, each recipient's notification (their settings decide, notify()), the cursor,
 * and the outbox row of the next batch (issue 44: were it queued only in Redis after the commit,
 * Redis forgetting it would stop the chain for good). So while the message is unfinished there is
 * always a row keyed by its cursor (`massMessageJobId(id, cursor)`), which the relay keeps alive.
 * A crash anywhere before the commit leaves nothing of the batch; after it, the next run starts
 * after the cursor. Null when the message to many is gone.
 */
export async function deliverMassBatch(db: DB, massMessageId: string, now: Date, batch = MASS_MESSAGE_BATCH): Promise<DeliveredBatch | null> {
  return db.transaction().execute(async (trx) => {
    const mass = await trx.selectFrom('mass_messages').selectAll().where('id', '=', massMessageId).forUpdate().executeTakeFirst();
    if (!mass) return null;
    if (mass.status === 'sent') return { messages: [], notices: [], next: null, done: true };
    const candidates = await sql<{ id: string; allowed: boolean }>`
      select r.id, ${mayBeMessagedBy(mass.creator_id, 'r.id')} as allowed
      from (${audienceSql(mass.creator_id, mass.audience, mass.tier_id)}) r
      where ${mass.cursor === null ? sql`true` : sql`r.id > ${mass.cursor}::uuid`}
      order by r.id limit ${batch}`.execute(trx);
    const recipients = candidates.rows.filter((r) => r.allowed).map((r) => r.id);
    const attachment = mass.attachment_id ? await trx.selectFrom('message_attachments').select('kind').where('id', '=', mass.attachment_id).executeTakeFirst() : undefined;
    const inserted = recipients.length
      ? (
          await sql<{ id: string; recipient_id: string; created_at: string }>`
            insert into messages (sender_id, recipient_id, content, attachment_id, media_type, price_cents, mass_message_id, created_at)
            select ${mass.creator_id}::uuid, r.id, ${mass.content}, ${mass.attachment_id}::uuid, ${attachment?.kind ?? null}, ${mass.price_cents}::bigint, ${mass.id}::uuid, ${now}::timestamptz
            from unnest(${recipients}::uuid[]) as r(id)
            on conflict (mass_message_id, recipient_id) where mass_message_id is not null do nothing
            returning id, recipient_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at`.execute(trx)
        ).rows
      : [];
    if (inserted.length) {
      const ids = inserted.map((m) => m.id);
      await sql`
        insert into conversations (user_id, partner_id, last_message_id, last_message_at)
        select x.u, x.p, m.id, m.created_at
        from messages m
        cross join lateral (values (m.sender_id, m.recipient_id), (m.recipient_id, m.sender_id)) as x(u, p)
        where m.id = any(${ids}::uuid[])
        on conflict (user_id, partner_id) do update
          set last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at
          where conversations.last_message_at <= excluded.last_message_at`.execute(trx);
    }
    // the batch's notifications delivered by one job, keyed by this batch (a batch redone adds no second one)
    const notices = await notifyMessages(trx, { recipientIds: inserted.map((m) => m.recipient_id), senderId: mass.creator_id, at: now, batch: massMessageJobId(mass.id, mass.cursor) });
    const last = candidates.rows[candidates.rows.length - 1]?.id ?? mass.cursor;
    const done = candidates.rows.length < batch;
    await trx
      .updateTable('mass_messages')
      .set({
        cursor: last,
        status: done ? 'sent' : 'sending',
        finished_at: done ? now : null,
        recipients_total: sql`recipients_total + ${inserted.length}`,
        // the keeper's measure of a stalled chain: the database's time, like the outbox's
        progressed_at: sql`now()`,
        stopped_total: null,
      })
      .where('id', '=', mass.id)
      .execute();
    const next = done ? null : await addToOutbox(trx, nextMassBatch(mass.id, last));
    const file = mass.attachment_id ? await findAttachment(trx, mass.attachment_id) : undefined;
    const priceCents = readCents(mass.price_cents);
    const messages = inserted.map(
      (m): MessageDto => ({
        id: m.id,
        clientId: null,
        senderId: mass.creator_id,
        recipientId: m.recipient_id,
        content: mass.content,
        // the recipient's view: a priced file is closed until bought
        attachment: file ? attachmentForViewer(m.recipient_id, { senderId: mass.creator_id, recipientId: m.recipient_id, priceCents, unlocked: false }, attachmentRowToDto(file)) : null,
        replyToId: null,
        replyTo: null,
        createdAt: m.created_at,
        editedAt: null,
        readAt: null,
        reactions: [],
        price: fromCents(priceCents),
        unlocked: priceCents === null,
        locked: priceCents !== null,
        massMessageId: mass.id,
      }),
    );
    return { messages, notices, next, done };
  });
}

/** The outbox entry of the batch after `cursor` (the keeper writes the same one to resume a stalled message). */
export function nextMassBatch(massMessageId: string, cursor: string | null) {
  return { queue: 'mass-messages' as const, name: 'deliver-mass-message' as const, data: { massMessageId, after: cursor }, jobId: massMessageJobId(massMessageId, cursor) };
}

/** Unread message counts of several recipients in one statement (their badges after a batch). */
export async function unreadMessageCounts(db: DB, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('messages')
    .select(['recipient_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('recipient_id', 'in', userIds)
    .where('read_at', 'is', null)
    .groupBy('recipient_id')
    .execute();
  return new Map(rows.map((r) => [r.recipient_id, Number(r.n)]));
}
