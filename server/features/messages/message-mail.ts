import { MAIL_JOB_OPTIONS, newMessageMailJobId } from '../../../common/jobs';
import type { AppDeps } from '../../../core/deps';
import { queueThroughOutbox } from '../../../core/outbox/outbox';
import { wantsEmail } from '../../../domain/notifications/email-consent';
import { onlineUsers } from '../../../domain/presence/presence';

/**
 * A new message to a recipient with no live socket anywhere is mailed to them, only with their
 * consent to activity mail (domain/notifications/email-consent.ts). The job names the message
 * only (jobId from its id: a repeat adds nothing); the worker re-reads it and skips a message
 * read or deleted meanwhile. A failure here never fails the send: the message is stored.
 */
export async function notifyOfflineRecipient(
  deps: Pick<AppDeps, 'db' | 'redis' | 'config' | 'queues' | 'log'>,
  { messageId, recipientId }: { messageId: string; recipientId: string },
): Promise<void> {
  try {
    const online = await onlineUsers(deps.redis, deps.config.REDIS_PREFIX, [recipientId]);
    if (online.has(recipientId)) return;
    if (!(await wantsEmail(deps.db, recipientId, 'activity'))) return;
    await queueThroughOutbox(deps, { queue: 'mail', name: 'new-message', data: { messageId }, jobId: newMessageMailJobId(messageId), options: MAIL_JOB_OPTIONS });
  } catch (error) {
    deps.log.warn({ err: error, messageId }, 'could not queue the new-message mail');
  }
}
