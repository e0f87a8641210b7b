import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { JobData, JobName } from '../../common/jobs';
import { BRAND } from '../../common/texts';
import type { Config } from '../../server/config';
import { mailTransportFor, type DeliveryResult, type MailTransport, type OutgoingMail } from '../mail/transport';

export interface MailDeps {
  config: Pick<Config, 'appUrl' | 'SMTP_URL' | 'MAIL_FROM' | 'OUTBOX_DIR'>;
  log: Logger;
  /** defaults to SMTP when SMTP_URL is set, else the outbox directory */
  transport?: MailTransport;
}

/** What a handler reads of a BullMQ job (a real Job fits; tests can pass a plain object). */
export type MailJob<N extends JobName<'mail'>> = Pick<Job<JobData<'mail', N>>, 'id' | 'name' | 'data' | 'timestamp'>;

export type MailHandler<N extends JobName<'mail'>> = (job: MailJob<N>, deps: MailDeps) => Promise<DeliveryResult>;

export function confirmEmailLink(appUrl: string, token: string): string {
  return `${appUrl}/auth/confirm?token=${encodeURIComponent(token)}`;
}

export function resetPasswordLink(appUrl: string, token: string): string {
  return `${appUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function compose(to: string, subject: string, lines: string[], action: string, link: string): OutgoingMail {
  const text = [...lines, '', `${action}: ${link}`, '', `— ${BRAND.name}`].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
    `<p style="color:#666;font-size:12px">If the button does not work, copy this address into your browser:<br>${escapeHtml(link)}</p>`,
    `<p>— ${escapeHtml(BRAND.name)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html, link };
}

export function confirmEmailMessage(appUrl: string, data: JobData<'mail', 'confirm-email'>): OutgoingMail {
  return compose(
    data.email,
    `Confirm your email address for ${BRAND.name}`,
    [`Welcome to ${BRAND.name}!`, 'Please confirm your email address to finish creating your account. The link is valid for 48 hours.'],
    'Confirm my email address',
    confirmEmailLink(appUrl, data.token),
  );
}

export function resetPasswordMessage(appUrl: string, data: JobData<'mail', 'reset-password'>): OutgoingMail {
  return compose(
    data.email,
    `Reset your ${BRAND.name} password`,
    [
      'Someone asked to reset the password of your account. The link is valid for 1 hour.',
      'If it was not you, ignore this email: your password stays as it is.',
    ],
    'Choose a new password',
    resetPasswordLink(appUrl, data.token),
  );
}

async function deliver(job: MailJob<JobName<'mail'>>, deps: MailDeps, mail: OutgoingMail): Promise<DeliveryResult> {
  if (!job.id) throw new Error(`mail job ${job.name} has no id`);
  const transport = deps.transport ?? mailTransportFor(deps.config, deps.log);
  // The job's own creation time and id: identical on every retry, so a retry delivers at most once (outbox).
  return transport.send(mail, { jobId: job.id, createdAt: new Date(job.timestamp) });
}

/** Handlers of the `mail` queue; the appUrl is read at run time (links point at the current site). */
export const mailHandlers: { [N in JobName<'mail'>]: MailHandler<N> } = {
  'confirm-email': (job, deps) => deliver(job, deps, confirmEmailMessage(deps.config.appUrl, job.data)),
  'reset-password': (job, deps) => deliver(job, deps, resetPasswordMessage(deps.config.appUrl, job.data)),
};
