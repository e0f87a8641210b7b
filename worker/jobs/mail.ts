import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { EmailTokenPurpose } from '../../common/enums';
import type { JobData, JobName } from '../../common/jobs';
import { BRAND } from '../../common/texts';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import type { DB } from '../../core/db/kysely';
import { emailTokenExpiry, findMailRecipient, issueEmailToken } from '../mail/email-tokens';
import { exportReadyMessage, securityNoticeMessage } from '../mail/security-mail';
import { exportDownloadPath } from '../../common/security';
import { sendCheckoutPaymentFailed, sendCreatorUnavailable, sendReceipt, sendRenewalFailed, sendRenewalReminder, sendPayoutFailed } from './billing-mail';
import { withinCap } from '../../domain/notifications/caps';
import { wantsEmail } from '../../domain/notifications/email-consent';
import { findUnreadSummaryForMail } from '../../domain/messaging/mail.queries';
import { composeMail } from '../mail/compose';
import { newMessageMail } from '../mail/new-message-mail';
import { mailTransportFor, type DeliveryResult, type MailTransport, type OutgoingMail } from '../mail/transport';

export interface MailDeps {
  config: Pick<Config, 'appUrl' | 'SMTP_URL' | 'MAIL_FROM' | 'OUTBOX_DIR' | 'REDIS_PREFIX'>;
  db: DB;
  log: Logger;
  /** the hourly e-mail cap's counts (domain/notifications/caps.ts) */
  redis: Redis;
  clock: Clock;
  /** defaults to SMTP when SMTP_URL is set, else the outbox directory */
  transport?: MailTransport;
}

/** What a handler reads of a BullMQ job (a real Job fits; tests can pass a plain object). */
export type MailJob<N extends JobName<'mail'>> = Pick<Job<JobData<'mail', N>>, 'id' | 'name' | 'data' | 'timestamp'>;

/**
 * A mail that needs no sending: the account is gone, its address was confirmed meanwhile, or the
 * job waited so long that its link would arrive expired (the user asks again).
 */
export interface MailSkipped {
  skipped: 'no-account' | 'already-confirmed' | 'expired' | 'no-consent' | 'gone' | 'cap';
}

export type MailOutcome = DeliveryResult | MailSkipped;

export type MailHandler<N extends JobName<'mail'>> = (job: MailJob<N>, deps: MailDeps) => Promise<MailOutcome>;

export function confirmEmailLink(appUrl: string, token: string): string {
  return `${appUrl}/auth/confirm?token=${encodeURIComponent(token)}`;
}

export function resetPasswordLink(appUrl: string, token: string): string {
  return `${appUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
}

export function confirmEmailMessage(appUrl: string, to: string, token: string): OutgoingMail {
  return composeMail(
    to,
    `Confirm your email address for ${BRAND.name}`,
    [`Welcome to ${BRAND.name}!`, 'Please confirm your email address to finish creating your account. The link is valid for 48 hours.'],
    'Confirm my email address',
    confirmEmailLink(appUrl, token),
  );
}

export function resetPasswordMessage(appUrl: string, to: string, token: string): OutgoingMail {
  return composeMail(
    to,
    `Reset your ${BRAND.name} password`,
    [
      'Someone asked to reset the password of your account. The link is valid for 1 hour.',
      'If it was not you, ignore this email: your password stays as it is.',
    ],
    'Choose a new password',
    resetPasswordLink(appUrl, token),
  );
}

type LinkMailName = 'confirm-email' | 'reset-password';

const MAILS: { [N in LinkMailName]: { purpose: EmailTokenPurpose; message: typeof confirmEmailMessage } } = {
  'confirm-email': { purpose: 'confirm_email', message: confirmEmailMessage },
  'reset-password': { purpose: 'reset_password', message: resetPasswordMessage },
};

/**
 * Reads the recipient, makes the link's token (only its hash is stored) and sends. The job
 * carries the user id alone, so Redis and the queue dashboard never hold a usable link.
 */
async function sendLink(job: MailJob<LinkMailName>, deps: MailDeps): Promise<MailOutcome> {
  if (!job.id) throw new Error(`mail job ${job.name} has no id`);
  const { purpose, message } = MAILS[job.name as LinkMailName];
  const recipient = await findMailRecipient(deps.db, job.data.userId);
  if (!recipient) return { skipped: 'no-account' };
  if (purpose === 'confirm_email' && recipient.emailVerified) return { skipped: 'already-confirmed' };

  const expiresAt = emailTokenExpiry(purpose, job.timestamp);
  if (expiresAt.getTime() <= Date.now()) return { skipped: 'expired' };

  const transport = deps.transport ?? mailTransportFor(deps.config, deps.log);
  // The job's own creation time and id: identical on every retry, so a retry delivers at most once (outbox).
  const key = { jobId: job.id, createdAt: new Date(job.timestamp) };
  // A retry of a job whose mail already went out must not make a new token: it would retire the mailed one.
  const earlier = await transport.findDelivery(recipient.email, key);
  if (earlier) return earlier;

  const token = await issueEmailToken(deps.db, job.data.userId, purpose, expiresAt);
  if (!token) return { skipped: 'no-account' };
  return transport.send(message(deps.config.appUrl, recipient.email, token), key);
}

/** Handlers of the `mail` queue; the appUrl is read at run time (links point at the current site). */
export const mailHandlers: { [N in JobName<'mail'>]: MailHandler<N> } = {
  'confirm-email': (job, deps) => sendLink(job, deps),
  'reset-password': (job, deps) => sendLink(job, deps),
  'security-notice': (job, deps) => sendSecurityNotice(job, deps),
  'export-ready': (job, deps) => sendExportReady(job, deps),
  'new-message': (job, deps) => sendNewMessage(job, deps),
  'billing-receipt': (job, deps) => sendReceipt(job, deps),
  'renewal-reminder': (job, deps) => sendRenewalReminder(job, deps),
  'creator-unavailable': (job, deps) => sendCreatorUnavailable(job, deps),
  'checkout-payment-failed': (job, deps) => sendCheckoutPaymentFailed(job, deps),
  'renewal-failed': (job, deps) => sendRenewalFailed(job, deps),
  'payout-failed': (job, deps) => sendPayoutFailed(job, deps),
};

/** Security mail (issue 13): no consent check, always sent; once per job across retries (outbox). */
async function sendSecurityNotice(job: MailJob<'security-notice'>, deps: MailDeps): Promise<MailOutcome> {
  if (!job.id) throw new Error(`mail job ${job.name} has no id`);
  const recipient = await findMailRecipient(deps.db, job.data.userId);
  if (!recipient) return { skipped: 'no-account' };
  const transport = deps.transport ?? mailTransportFor(deps.config, deps.log);
  const key = { jobId: job.id, createdAt: new Date(job.timestamp) };
  const earlier = await transport.findDelivery(recipient.email, key);
  if (earlier) return earlier;
  return transport.send(securityNoticeMessage(deps.config.appUrl, recipient.email, job.data), key);
}

/** The export's link (served to its owner only); skipped when the export is gone or expired. */
async function sendExportReady(job: MailJob<'export-ready'>, deps: MailDeps): Promise<MailOutcome> {
  if (!job.id) throw new Error(`mail job ${job.name} has no id`);
  const recipient = await findMailRecipient(deps.db, job.data.userId);
  if (!recipient) return { skipped: 'no-account' };
  const row = await deps.db
    .selectFrom('data_exports')
    .select(['expires_at'])
    .where('id', '=', job.data.exportId)
    .where('user_id', '=', job.data.userId)
    .where('status', '=', 'ready')
    .executeTakeFirst();
  if (!row || row.expires_at.getTime() <= Date.now()) return { skipped: 'expired' };
  const transport = deps.transport ?? mailTransportFor(deps.config, deps.log);
  const key = { jobId: job.id, createdAt: new Date(job.timestamp) };
  const earlier = await transport.findDelivery(recipient.email, key);
  if (earlier) return earlier;
  return transport.send(exportReadyMessage(deps.config.appUrl, recipient.email, exportDownloadPath(job.data.exportId), row.expires_at), key);
}

/**
 * Messages to an offline recipient (issue 12, issue 23 §5), one job per conversation and quiet
 * period, run at the period's end: one summary of the period's messages still unread; skipped when
 * all were read or deleted meanwhile, or when the recipient has turned activity mail off since;
 * once per job across retries (outbox).
 */
async function sendNewMessage(job: MailJob<'new-message'>, deps: MailDeps): Promise<MailOutcome> {
  if (!job.id) throw new Error(`mail job ${job.name} has no id`);
  const { recipientId, senderId, periodStart, periodEnd } = job.data;
  const row = await findUnreadSummaryForMail(deps.db, recipientId, senderId, new Date(periodStart), new Date(periodEnd));
  const unread = Number(row?.unread ?? 0);
  if (!row || unread === 0) return { skipped: 'expired' };
  if (!(await wantsEmail(deps.db, recipientId, 'activity', 'message'))) return { skipped: 'no-consent' };
  const transport = deps.transport ?? mailTransportFor(deps.config, deps.log);
  const key = { jobId: job.id, createdAt: new Date(job.timestamp) };
  const earlier = await transport.findDelivery(row.recipient_email, key);
  if (earlier) return earlier;
  // no flood (issue 28): past the hour's e-mail cap the messages wait in the app, unread
  if (!(await withinCap(deps.redis, deps.config.REDIS_PREFIX, 'email', recipientId, job.id, deps.clock.now()))) return { skipped: 'cap' };
  const sender = { username: row.sender_username, displayName: row.sender_display_name };
  return transport.send(newMessageMail(deps.config.appUrl, row.recipient_email, sender, unread), key);
}
