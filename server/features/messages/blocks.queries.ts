import type { DB } from '../../../core/db/kysely';

/** Blocks between users (user_blocks); reading them is the messaging rule's (domain/access/messaging.queries.ts). */

export async function insertBlock(db: DB, blockerId: string, blockedId: string): Promise<void> {
  await db
    .insertInto('user_blocks')
    .values({ blocker_id: blockerId, blocked_id: blockedId })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .execute();
}

export async function deleteBlock(db: DB, blockerId: string, blockedId: string): Promise<void> {
  await db.deleteFrom('user_blocks').where('blocker_id', '=', blockerId).where('blocked_id', '=', blockedId).execute();
}
