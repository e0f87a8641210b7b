import { sql } from 'kysely';
import { readCents } from '../../../core/db/cents';
import type { DB } from '../../../core/db/kysely';

/** The post's creator and price (null when no such post). */
export async function findPostOwner(db: DB, postId: string) {
  return db.selectFrom('posts').select(['id', 'creator_id', 'unlock_price_cents', 'unlock_mode']).where('id', '=', postId).executeTakeFirst();
}

/**
 * A post's unlocks as its creator sees them: fans holding one now (not revoked), and the revenue
 * of every unlock charge of the post net of its refunds and disputes (cents). Index lookups on
 * post_unlocks_post and payments' reverses_payment_id.
 */
export async function findUnlockStats(db: DB, postId: string): Promise<{ unlocks: number; revenueCents: number }> {
  const row = await sql<{ unlocks: string; revenue: string }>`
    select
      (select count(*) from post_unlocks pu where pu.post_id = ${postId} and pu.revoked_at is null) as unlocks,
      coalesce((
        select sum(c.amount_cents + coalesce((select sum(r.amount_cents) from payments r where r.reverses_payment_id = c.id), 0))
        from post_unlocks pu join payments c on c.id = pu.payment_id
        where pu.post_id = ${postId} and c.kind = 'charge' and c.status = 'succeeded'
      ), 0)::text as revenue`.execute(db);
  const { unlocks, revenue } = row.rows[0]!;
  return { unlocks: Number(unlocks), revenueCents: readCents(revenue) };
}
