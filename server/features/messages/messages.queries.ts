import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/schema';

export async function countUnreadMessages(db: Kysely<Database>, recipientId: string): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
