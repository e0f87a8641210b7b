import type { DB } from '../../core/db/kysely';
import type { Realtime } from '../../core/realtime/realtime';
import { markGroupRead, messageGroupKey, unreadNotificationCount } from './notify';

/** Messages of these senders were read (the thread was open): their rows are read too, and the bell follows. */
export async function markThreadsRead(deps: { db: DB; realtime: Realtime }, userId: string, senderIds: string[]): Promise<void> {
  let changed = 0;
  for (const senderId of senderIds) changed += await markGroupRead(deps.db, userId, messageGroupKey(senderId), new Date());
  if (changed) deps.realtime.toUser(userId, 'notifications:unread', { count: await unreadNotificationCount(deps.db, userId) });
}
