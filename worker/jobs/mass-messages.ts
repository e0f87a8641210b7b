import type { MassMessageJobs } from '../../common/jobs';
import { dispatchOutbox } from '../../core/outbox/outbox';
import { deliverMassBatch, unreadMessageCounts } from '../../domain/messaging/mass-messages';
import type { QueueHandlers, WorkerDeps } from '../registry';

/**
 * One batch of a message to many (domain/messaging/mass-messages.ts), whose transaction also wrote
 * the next batch's outbox row. After the batch's commit: the next batch is queued, each
 * recipient's notification is delivered, and their open tabs get the message and their badge. A
 * crash before the commit redoes the batch; after it, the relay queues the next batch's row (never
 * lost with Redis), which starts after the saved cursor.
 */
async function deliver(deps: WorkerDeps, data: MassMessageJobs['deliver-mass-message']) {
  const batch = await deliverMassBatch(deps.db, data.massMessageId, deps.clock.now(), deps.config.MASS_MESSAGE_BATCH_SIZE);
  if (!batch) return { skipped: 'gone' };
  await dispatchOutbox(deps, batch.next ? [batch.next, ...batch.notices] : batch.notices);
  for (const message of batch.messages) deps.realtime.toUser(message.recipientId, 'message:new', { message });
  const counts = await unreadMessageCounts(deps.db, batch.messages.map((m) => m.recipientId));
  for (const [userId, count] of counts) deps.realtime.toUser(userId, 'unread:changed', { count });
  return { delivered: batch.messages.length, done: batch.done };
}

export const massMessageHandlers: QueueHandlers<'mass-messages'> = {
  'deliver-mass-message': (job, deps) => deliver(deps, job.data),
};
