import { massMessageJobId, type MassMessageJobs } from '../../common/jobs';
import { dispatchOutbox } from '../../core/outbox/outbox';
import { deliverMassBatch, unreadMessageCounts } from '../../domain/messaging/mass-messages';
import type { QueueHandlers, WorkerDeps } from '../registry';

/**
 * One batch of a message to many (domain/messaging/mass-messages.ts), then the next batch as a job
 * of its own. After the batch's commit: each recipient's notification is delivered, their open tabs
 * get the message and their badge, and the creator's tabs hear the progress. A crash before the
 * commit redoes the batch; after it, the retry (or the next job) starts after the saved cursor.
 */
async function deliver(deps: WorkerDeps, data: MassMessageJobs['deliver-mass-message']) {
  const batch = await deliverMassBatch(deps.db, data.massMessageId, deps.clock.now());
  if (!batch) return { skipped: 'gone' };
  if (!batch.done) {
    const row = await deps.db.selectFrom('mass_messages').select('cursor').where('id', '=', data.massMessageId).executeTakeFirstOrThrow();
    await deps.queues.add('mass-messages', 'deliver-mass-message', { massMessageId: data.massMessageId, after: row.cursor }, { jobId: massMessageJobId(data.massMessageId, row.cursor) });
  }
  await dispatchOutbox(deps, batch.notices);
  for (const message of batch.messages) deps.realtime.toUser(message.recipientId, 'message:new', { message });
  const counts = await unreadMessageCounts(deps.db, batch.messages.map((m) => m.recipientId));
  for (const [userId, count] of counts) deps.realtime.toUser(userId, 'unread:changed', { count });
  return { delivered: batch.messages.length, done: batch.done };
}

export const massMessageHandlers: QueueHandlers<'mass-messages'> = {
  'deliver-mass-message': (job, deps) => deliver(deps, job.data),
};
