import { MAIL_JOB_OPTIONS, newMessageMailJobId } from '../../../common/jobs';
import type { AppDeps } from '../../../core/deps';
import { queueThroughOutbox } from '../../../core/outbox/outbox';
import { wantsEmail } from '../../../domain/notifications/email-consent';
import { onlineUsers } from '../../../domain/presence/presence';

/**
 * A new message to a recipient with no live socket anywhere is mailed to them, only with their
 * consent to activity mail (domain/notifications/email-consent.ts), and at most once per
 * conversation per quiet period (MESSAGE_MAIL_QUIET_MS): time is cut into periods, each message
 * asks for the job of its conversation and period (jobId: a repeat adds nothing), delayed to the
 * period's end, when the worker mails one summary of what is still unread. So 30 messages make one
 * mail, and two mails of one conversation are a whole period apart. A failure here never fails the
 * send: the message is stored.
 */
export async function notifyOfflineRecipient(
  deps: Pick<AppDeps, 'db' | 'redis' | 'config' | 'queues' | 'log'>,
  { messageId, senderId, recipientId, sentAt }: { messageId: string; senderId: string; recipientId: string; sentAt: Date },
  now = Date.now(),
): Promise<void> {
  try {
    const online = await onlineUsers(deps.redis, deps.config.REDIS_PREFIX, [recipientId]);
    if (online.has(recipientId)) return;
    if (!(await wantsEmail(deps.db, recipientId, 'activity', 'message'))) return;
    const quiet = deps.config.MESSAGE_MAIL_QUIET_MS;
    // the period the message was stored in: the one whose job will count it
    const periodStart = Math.floor(sentAt.getTime() / quiet) * quiet;
    await queueThroughOutbox(deps, {
      queue: 'mail',
      name: 'new-message',
      data: { recipientId, senderId, periodStart, periodEnd: periodStart + quiet },
      jobId: newMessageMailJobId(recipientId, senderId, periodStart),
      options: MAIL_JOB_OPTIONS,
      delayMs: Math.max(0, periodStart + quiet - now),
    });
  } catch (error) {
    deps.log.warn({ err: error, messageId }, 'could not queue the new-message mail');
  }
}
