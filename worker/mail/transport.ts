import { randomBytes } from 'node:crypto';
import { access, link, mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../../core/config';

export type MailConfig = Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'OUTBOX_DIR'>;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** the one action link of the message (logged and stored in outbox mode) */
  link: string;
}

/** What makes a delivery the same delivery across retries: the job id and the job's creation time. */
export interface DeliveryKey {
  jobId: string;
  createdAt: Date;
}

export interface DeliveryResult {
  via: 'smtp' | 'outbox';
  /** false when this key was already delivered (a retried job): nothing was sent again */
  delivered: boolean;
  /** outbox file path, or the SMTP message id */
  ref: string;
}

export interface MailTransport {
  readonly via: 'smtp' | 'outbox';
  /**
   * Whether this key was already delivered to `to` (the outbox can tell; SMTP cannot and says
   * no): a retried job checks before it makes a new link token that would retire the mailed one.
   */
  findDelivery(to: string, key: DeliveryKey): Promise<DeliveryResult | null>;
  send(mail: OutgoingMail, key: DeliveryKey): Promise<DeliveryResult>;
  close(): void;
}

const safePart = (value: string) => value.replace(/[^A-Za-z0-9@._+-]/g, '_').slice(0, 200);

/** `<timestamp>-<to>-<jobId>.json`: the same name on every attempt of one job. */
export function outboxFileName(to: string, key: DeliveryKey): string {
  return `${key.createdAt.getTime()}-${safePart(to)}-${safePart(key.jobId)}.json`;
}

/**
 * Development and tests (no SMTP_URL): one JSON file per message. The file is written under a
 * temporary name and hard-linked to its final name, which fails if it exists: a retried job never
 * writes twice, and a crash mid-write never leaves a truncated message under the final name.
 */
export function createOutboxTransport(outboxDir: string, log: Logger): MailTransport {
  return {
    via: 'outbox',
    async findDelivery(to, key) {
      const file = path.join(outboxDir, outboxFileName(to, key));
      return access(file).then(
        () => ({ via: 'outbox', delivered: false, ref: file }),
        () => null,
      );
    },
    async send(mail, key) {
      await mkdir(outboxDir, { recursive: true });
      const file = path.join(outboxDir, outboxFileName(mail.to, key));
      const body = JSON.stringify({ ...mail, createdAt: key.createdAt.toISOString() }, null, 2);
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(tmp, body, { flag: 'wx' });
      try {
        await link(tmp, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
          log.info({ to: mail.to, file, jobId: key.jobId }, 'mail already in outbox; not written again');
          return { via: 'outbox', delivered: false, ref: file };
        }
        throw error;
      } finally {
        await unlink(tmp).catch(() => undefined);
      }
      log.info({ to: mail.to, subject: mail.subject, link: mail.link, file }, 'mail written to outbox');
      return { via: 'outbox', delivered: true, ref: file };
    },
    close() {},
  };
}

/**
 * Production: SMTP through nodemailer. A retry after the server accepted the message but before the
 * job was acknowledged sends it again (at-least-once); the Message-ID is derived from the job so
 * receiving systems can recognise the duplicate.
 */
export function createSmtpTransport(smtpUrl: string, from: string, log: Logger): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return {
    via: 'smtp',
    async findDelivery() {
      return null;
    },
    async send(mail, key) {
      const messageId = `<${safePart(key.jobId)}.${key.createdAt.getTime()}@${domain}>`;
      const info = await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, messageId });
      log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent');
      return { via: 'smtp', delivered: true, ref: info.messageId };
    },
    close() {
      transporter.close();
    },
  };
}

export function createMailTransport(config: MailConfig, log: Logger): MailTransport {
  return config.SMTP_URL
    ? createSmtpTransport(config.SMTP_URL, config.MAIL_FROM, log)
    : createOutboxTransport(config.OUTBOX_DIR, log);
}

/** One transport (one SMTP connection pool) per settings object. */
const cache = new WeakMap<MailConfig, MailTransport>();
export function mailTransportFor(config: MailConfig, log: Logger): MailTransport {
  let transport = cache.get(config);
  if (!transport) {
    transport = createMailTransport(config, log);
    cache.set(config, transport);
  }
  return transport;
}
