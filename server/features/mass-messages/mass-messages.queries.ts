import { sql } from 'kysely';
import type { DB } from '../../../core/db/kysely';
import type { MassAudience } from '../../../common/paid-message-schemas';
import { messageUnlockedBy } from '../../../domain/access/messaging.queries';

/** The SQL of messages to many (issue 27 item 4): the creator's own rows only, keyset pages. */

export function findByClientId(db: DB, creatorId: string, clientId: string) {
  return db.selectFrom('mass_messages').select('id').where('creator_id', '=', creatorId).where('client_id', '=', clientId).executeTakeFirst();
}

export function findOwnTier(db: DB, creatorId: string, tierId: string) {
  return db.selectFrom('subscription_tiers').select('id').where('id', '=', tierId).where('creator_id', '=', creatorId).where('archived_at', 'is', null).executeTakeFirst();
}

/** Messages to many the creator started since `since` (the daily quota), counted under the creator's row lock. */
export async function countSince(db: DB, creatorId: string, since: Date): Promise<number> {
  await db.selectFrom('users').select('id').where('id', '=', creatorId).forNoKeyUpdate().execute();
  const row = await db.selectFrom('mass_messages').select((eb) => eb.fn.countAll<string>().as('n')).where('creator_id', '=', creatorId).where('created_at', '>', since).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertMassMessage(
  db: DB,
  values: { creator_id: string; audience: MassAudience; tier_id: string | null; content: string | null; attachment_id: string | null; price_cents: number | null; client_id: string },
) {
  return db
    .insertInto('mass_messages')
    .values(values)
    .onConflict((oc) => oc.columns(['creator_id', 'client_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

/**
 * One page of the creator's messages to many, newest first, each with what it did: copies sent,
 * read, unlocked (bought and not taken back) and the revenue of those purchases net of refunds.
 * One statement; the counts read messages_mass_recipient_key and payments_message_id_idx.
 */
export function findMassMessagePage(db: DB, creatorId: string, before: { at: string; id: string } | null, limit: number) {
  return db
    .selectFrom('mass_messages as mm')
    .leftJoin('subscription_tiers as t', 't.id', 'mm.tier_id')
    .leftJoin('message_attachments as a', 'a.id', 'mm.attachment_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('messages as m')
          .select([
            sql<string>`count(*)`.as('sent'),
            sql<string>`count(*) filter (where m.read_at is not null)`.as('read'),
            sql<string>`count(*) filter (where ${messageUnlockedBy('m.id', 'm.recipient_id')})`.as('unlocked'),
            sql<string>`coalesce(sum((select sum(p.amount_cents) from payments p where p.message_id = m.id and p.purpose = 'message_unlock' and p.kind = 'charge' and p.status = 'succeeded')
              + coalesce((select sum(r.amount_cents) from payments r join payments c on c.id = r.reverses_payment_id
                where c.message_id = m.id and c.purpose = 'message_unlock' and r.kind = 'refund'), 0)), 0)::text`.as('revenue'),
          ])
          .whereRef('m.mass_message_id', '=', 'mm.id')
          .as('st'),
      (join) => join.onTrue(),
    )
    .select([
      'mm.id',
      'mm.audience',
      'mm.content',
      'mm.price_cents',
      'mm.status',
      'mm.recipients_total',
      'mm.stopped_total',
      sql<string>`to_char(mm.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('created_at'),
      't.name as tier_name',
      'a.kind as attachment_kind',
      'st.sent',
      'st.read',
      'st.unlocked',
      'st.revenue',
    ])
    .where('mm.creator_id', '=', creatorId)
    .$if(before !== null, (q) => q.where(sql<boolean>`(mm.created_at, mm.id) < (${before!.at}::timestamptz, ${before!.id}::uuid)`))
    .orderBy('mm.created_at', 'desc')
    .orderBy('mm.id', 'desc')
    .limit(limit)
    .execute();
}
