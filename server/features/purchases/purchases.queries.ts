import { sql } from 'kysely';
import type { FeedCursor } from '../../../common/post-schemas';
import type { PurchaseFilter } from '../../../common/purchase-schemas';
import type { DB } from '../../../core/db/kysely';

export interface PurchaseRow {
  id: string;
  kind: 'post' | 'message';
  /** bigint cents as pg answers them */
  amount_cents: string;
  purchased_at: Date;
  cursor_at: string;
  username: string | null;
  display_name: string | null;
  avatar_url: string | null;
  post_id: string | null;
  post_title: string | null;
  message_id: string | null;
  message_text: string | null;
}

/**
 * One fan's purchases, newest first, after the cursor: the posts they unlocked (an unlock not
 * revoked by a refund or a dispute) and the messages they bought (a succeeded charge), each with
 * its creator. Only `fanId`'s: the caller passes the signed-in user.
 */
export async function findPurchasePage(db: DB, opts: { fanId: string; filter: PurchaseFilter; cursor: FeedCursor | null; limit: number }): Promise<PurchaseRow[]> {
  const { fanId, filter, cursor } = opts;
  const posts = sql`
    select pu.id, 'post' as kind, p.amount_cents, pu.created_at as purchased_at,
      pr.username, pr.display_name, pr.avatar_url,
      po.id as post_id, po.title as post_title, null::uuid as message_id, null::text as message_text
    from post_unlocks pu
    join payments p on p.id = pu.payment_id
    join posts po on po.id = pu.post_id
    left join profiles pr on pr.id = po.creator_id
    where pu.fan_id = ${fanId} and pu.revoked_at is null`;
  const messages = sql`
    select p.id, 'message' as kind, p.amount_cents, p.created_at as purchased_at,
      pr.username, pr.display_name, pr.avatar_url,
      null::uuid as post_id, null::text as post_title, m.id as message_id, m.content as message_text
    from payments p
    join messages m on m.id = p.message_id
    left join profiles pr on pr.id = m.sender_id
    where p.user_id = ${fanId} and p.purpose = 'message_unlock' and p.kind = 'charge' and p.status = 'succeeded'`;
  const union =
    filter === 'posts' ? posts : filter === 'messages' ? messages : sql`${posts} union all ${messages}`;
  const after = cursor ? sql`where (b.purchased_at, b.id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)` : sql``;
  const { rows } = await sql<PurchaseRow>`
    select b.*, to_char(b.purchased_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
    from (${union}) b
    ${after}
    order by b.purchased_at desc, b.id desc
    limit ${opts.limit + 1}`.execute(db);
  return rows;
}
