import { randomUUID } from 'node:crypto';
import { MAIL_JOB_OPTIONS, oneMailJobId, type SecurityNoticeKind } from '../../common/jobs';
import type { DB } from '../../core/db/kysely';
import { addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import { describeDevice } from './device';

/**
 * Security mail (always sent: no consent check), as an outbox row in the transaction of the
 * change it tells of; the caller dispatches the entry after the commit. The job holds the user id,
 * the kind, the device name and the time: nothing secret.
 */
export function addSecurityNotice(trx: DB, userId: string, kind: SecurityNoticeKind, userAgent: string | null): Promise<QueuedEntry> {
  return addToOutbox(trx, {
    queue: 'mail',
    name: 'security-notice',
    data: { userId, kind, device: userAgent ? describeDevice(userAgent) : null, at: new Date().toISOString() },
    jobId: oneMailJobId('security-notice', randomUUID()),
    options: MAIL_JOB_OPTIONS,
  });
}
