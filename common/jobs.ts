/**
 * Queue names and job payloads shared by the server (producers) and the worker (handlers).
 * The worker refuses to start when a job name here has no handler, so a name is added here
 * together with its handler.
 */
export const QUEUE_NAMES = ['mail', 'maintenance', 'media', 'transcode', 'attachments', 'attachment-transcode', 'exports', 'notifications', 'notify-fanout', 'notify-push', 'mass-messages', 'forensics'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/**
 * Processing an uploaded post. Two queues share the job: `media` (images and documents: sharp,
 * short, several at a time) and `transcode` (video and audio: ffmpeg, long, one at a time per
 * worker), so a long video never holds up images. The producer picks the queue by the post's
 * kind (`mediaQueueFor`); the jobId is `process-post-<postId>` (`processPostJobId`), so a
 * duplicate add is a no-op and a post is never processed twice at once.
 */
export interface MediaJobs {
  'process-post': { postId: string };
}

/**
 * Mail jobs name the user only: the worker reads the address and makes the link's token when it
 * sends (storing its hash), so no job, in any state, holds a token, a password or a session.
 * Producers add them with MAIL_JOB_OPTIONS.
 */
export interface MailJobs {
  'confirm-email': { userId: string };
  'reset-password': { userId: string };
  /**
   * Security mail (issue 13), sent whatever the notification settings say: a new sign-in, two-factor
   * turned on or off, a recovery code used, the password changed. `device` is the browser and
   * system read from the user agent, `at` the event's time (ISO).
   */
  'security-notice': { userId: string; kind: SecurityNoticeKind; device: string | null; at: string };
  /** "Download my data" is ready: the mail links to the owner-only download (no token in it). */
  'export-ready': { userId: string; exportId: string };
  /** A receipt after a charge (issue 11), jobId `billing-receipt-<paymentId>`; only with activity e-mail on. */
  'billing-receipt': { paymentId: string };
  /** An annual subscription renews soon (issue 11), jobId per subscription and period; only with activity e-mail on. */
  'renewal-reminder': { subscriptionId: string; periodEnd: string };
  /**
   * The fan's creator turned private or hidden (issue 22): the subscription ends at its period end
   * and is not charged again. Sent once, whatever the notification settings (it is about money).
   * jobId `creator-unavailable-<subscriptionId>` (creatorUnavailableMailJobId).
   */
  'creator-unavailable': { subscriptionId: string };
  /**
   * A Checkout paid by a method that clears later (a bank debit) failed: no subscription started.
   * Sent whatever the notification settings say (the fan is waiting for it). jobId from the event.
   */
  'checkout-payment-failed': { userId: string; tierId: string };
  /**
   * A renewal charge failed for the first time in a period (issue 22 item 9): what happens now
   * and what to do. Names the `failed` ledger row (one per period), jobId `renewal-failed-<paymentId>`;
   * only with activity e-mail on.
   */
  'renewal-failed': { paymentId: string };
  /**
   * Direct messages to a recipient who was offline, with activity mail allowed (issue 12, issue 23
   * §5): one delayed job per conversation and quiet period (jobId newMessageMailJobId), run at the
   * period's end, which mails one summary of the messages of that period still unread. Names the
   * two users and the period only.
   */
  'new-message': { recipientId: string; senderId: string; periodStart: number; periodEnd: number };
  /**
   * A payout the provider refused (issue 26): the amount is back in the creator's balance and the
   * mail says why. Sent whatever the notification settings (it is about their money). jobId
   * `payout-failed-<payoutId>`.
   */
  'payout-failed': { payoutId: string };
}
export const creatorUnavailableMailJobId = (subscriptionId: string) => `creator-unavailable-${subscriptionId}`;
/** One per recipient, sender and quiet period (the period's start, ms since the epoch). */
export const newMessageMailJobId = (recipientId: string, senderId: string, periodStart: number) => `new-message-${recipientId}-${senderId}-${periodStart}`;

export const SECURITY_NOTICE_KINDS = ['new-sign-in', 'two-factor-enabled', 'two-factor-disabled', 'recovery-code-used', 'password-changed'] as const;
export type SecurityNoticeKind = (typeof SECURITY_NOTICE_KINDS)[number];

/** A sent mail's job is removed at once: nothing about it is worth keeping in Redis. */
export const MAIL_JOB_OPTIONS = { removeOnComplete: true } as const;

/**
 * The jobId of a mail that has no natural one (each confirmation, reset link or security notice
 * is a mail of its own): the outbox row and the job share it, so a relay never sends it twice.
 */
export const oneMailJobId = (name: 'confirm-email' | 'reset-password' | 'security-notice', id: string) => `${name}-${id}`;

export interface MaintenanceJobs {
  /**
   * repeatable (issue 11, docs/payments.md): renews due subscriptions through the provider, marks
   * failed renewals past due, ends lapsed subscriptions and Premium, queues renewal reminders
   */
  'billing-maintenance': Record<string, never>;
  /**
   * A second Stripe checkout for a creator the fan already subscribes to (two tabs): its Stripe
   * subscription is cancelled now and its payment refunded, then marked 'refunded' in the ledger
   * (domain/billing/duplicate-checkout.ts). jobId `undo-duplicate-checkout-<webhook event id>`.
   */
  'undo-duplicate-checkout': { paymentId: string; providerSubscriptionId: string | null };
  /**
   * A provider-renewed subscription that ended here other than by running out (its fan or its
   * creator deleted) is cancelled at the provider now (domain/billing/account-deletion.ts). From
   * the outbox; jobId `cancel-provider-subscription-<provider>-<id>`; safe to repeat.
   */
  'cancel-provider-subscription': { provider: string; providerSubscriptionId: string };
  /**
   * (Part of) a charge paid back through the provider that took it, then written as a refund row
   * (domain/billing/refunds.ts): a deleted creator's fans' pro rata refunds, and an admin's refunds
   * (domain/billing/admin-refund.ts). From the outbox; jobId `provider-refund-<systemKey>`; the
   * system key is also the provider's idempotency key (and, at Stripe, the refund's metadata
   * `reversal_key`), so a repeat refunds once and the charge.refunded webhook adds nothing.
   * A job queued before money was whole cents (issue 45) carries `amount` in rand instead.
   */
  'provider-refund': { paymentId: string; amountCents: number; systemKey: string } | { paymentId: string; amount: string; systemKey: string };
  /**
   * A payout's transfer to the creator's payout account (issue 26, domain/earnings/payouts.ts),
   * from the outbox; jobId `send-payout-<payoutId>`; the provider's idempotency key is
   * `payout-<payoutId>`, so a retry is the same transfer.
   */
  'send-payout': { payoutId: string };
  /** repeatable (hourly): the week's automatic payouts, once per creator and payout week */
  'weekly-payouts': Record<string, never>;
  /** repeatable (every 6 hours): the ledger reconciled with our rows and the providers' records, yesterday and today (issue 45) */
  'reconcile-ledger': Record<string, never>;
  /** repeatable: removes sessions and e-mail tokens past their expiry */
  'purge-expired': Record<string, never>;
  /**
   * After a post's rows are deleted: removes its stored files (every variant). Queued with
   * jobId `delete-post-files-<postId>`; safe to run twice (a missing file is not an error).
   */
  'delete-post-files': { postId: string; keys: string[] };
  /** repeatable: removes partial tus uploads older than UPLOAD_EXPIRY_HOURS from UPLOADS_DIR */
  'expire-uploads': Record<string, never>;
  /**
   * repeatable: posts still 'processing' long after their last change whose job is gone (Redis
   * lost it, or the server died between the commit and the enqueue) are queued again.
   */
  'requeue-processing': Record<string, never>;
  /**
   * After an account or its data was deleted (issue 13): removes the stored files listed in
   * storage_deletions under `batch` (written in the deletion's transaction). jobId
   * `delete-user-files-<batch>` (a fresh id per deletion, never the user's); safe to run twice.
   */
  'delete-user-files': { batch: string };
  /** repeatable: exports past their expiry leave storage and the table */
  'expire-data-exports': Record<string, never>;
  /**
   * repeatable (issue 23): chat attachments never sent in a message, older than
   * UNSENT_ATTACHMENT_TTL_HOURS, leave storage and the table (worker/jobs/unsent-attachments.ts)
   */
  'expire-unsent-attachments': Record<string, never>;
  /**
   * repeatable (issue 29): publishes the scheduled posts whose time has come by the worker's
   * clock (worker/jobs/scheduled-posts.ts). Each is one conditional write, so two runs at once
   * publish a post once, and a run after an outage publishes everything missed.
   */
  'publish-scheduled': Record<string, never>;
}

/**
 * Avatars (issue 13), on the `media` queue: the upload stored under `avatars/<userId>/incoming-<uploadId>`
 * is re-encoded square without metadata and becomes the profile's avatar unless a newer upload
 * superseded it. jobId `process-avatar-<uploadId>` (`processAvatarJobId`).
 */
export interface AvatarJobs {
  'process-avatar': { userId: string; uploadId: string };
}
export const processAvatarJobId = (uploadId: string) => `process-avatar-${uploadId}`;

/**
 * Chat attachments (issue 12), on queues of their own (issue 23): `attachments` (images,
 * documents) or `attachment-transcode` (video, audio) by `attachmentQueueFor(kind)`, so that no
 * number of fans' files can delay a creator's post on `media` or `transcode`. The uploaded bytes
 * are checked and made safe by the posts' pipeline (worker/media) and stored privately. jobId
 * `process-message-attachment-<id>`.
 */
export interface MessageMediaJobs {
  'process-message-attachment': { attachmentId: string };
}
export const messageAttachmentJobId = (attachmentId: string) => `process-message-attachment-${attachmentId}`;

/**
 * "Download my data" (issue 23), on a queue of its own (one at a time per worker), so a big zip
 * never holds up billing or deletions: builds the zip (jobId `data-export-<exportId>`), then
 * mails its link.
 */
export interface ExportJobs {
  'build-data-export': { exportId: string };
}

/**
 * Notifications (issue 28). `deliver-notification` (jobId `notification-<id>-<actorCount>`, from
 * the outbox row notify() writes with the notification) tells the user's tabs the new unread
 * count and, when `push`, writes one `send-push` outbox row per browser (jobId `push-<notificationId>-<actorCount>-<subscriptionId>`),
 * which sends through web-push and forgets a browser the push service no longer knows (404/410).
 * A new post reaches its creator's subscribers through `fan-out-post` on `notify-fanout`, a queue
 * of its own: one job per batch of subscribers (`after`: the last subscriber id of the previous
 * batch), so 10,000 subscribers delay nobody's message. Each batch's pushes are one
 * `send-push-batch` on `notify-push`, a queue of their own with few slots (the batches' rows are
 * written first, and the pushes' CPU stays bounded): jobId `pushes-<fan-out batch's jobId>`,
 * sending that batch's push_sends rows still unsent (domain/notifications/push-sends.ts).
 */
export interface NotificationJobs {
  /** `pushDelayMs`: the pushes wait this long and go only if the row is still unread then */
  'deliver-notification': { notificationId: string; push: boolean; pushDelayMs?: number };
  'send-push': { notificationId: string; subscriptionId: string };
  /**
   * `deliver-notification` for the rows of one batch of a message to many (issue 50 item 4: a job
   * per recipient made 10,000 jobs and as many commits of their outbox rows): `pushIds` are the
   * rows of `notificationIds` to push (each the first of its burst). jobId `notifications-<batch>`.
   */
  'deliver-notifications': { notificationIds: string[]; pushIds: string[]; pushDelayMs?: number };
}
// the queue kept for rows written before the batches: never a batch's delivery
export interface FanOutJobs extends Omit<NotificationJobs, 'deliver-notifications'> {
  'fan-out-post': { postId: string; after: string | null };
}
export interface PushBatchJobs {
  /** `batch`: the fan-out batch's jobId, which names its push_sends rows */
  'send-push-batch': { batch: string };
}
export const deliverNotificationJobId = (notificationId: string, actorCount: number) => `notification-${notificationId}-${actorCount}`;
export const deliverNotificationsJobId = (batch: string) => `notifications-${batch}`;
export const sendPushJobId = (notificationId: string, subscriptionId: string, actorCount: number) => `push-${notificationId}-${actorCount}-${subscriptionId}`;
export const fanOutPostJobId = (postId: string, after: string | null) => `fan-out-post-${postId}-${after ?? 'first'}`;
export const pushBatchJobId = (batch: string) => `pushes-${batch}`;

/**
 * A creator's message to many (issue 27 item 4) on a queue of its own: one `deliver-mass-message`
 * job per batch of recipients (the cursor lives on the mass_messages row and moves in the batch's
 * transaction; `after` only names the job), the next batch an outbox row written in the
 * transaction of the one before it, so 10,000 recipients hold up nobody's direct message, and a
 * crash or a Redis that forgets resumes where the last commit left off.
 */
export interface MassMessageJobs {
  'deliver-mass-message': { massMessageId: string; after: string | null };
}
export const massMessageJobId = (massMessageId: string, after: string | null) => `mass-message-${massMessageId}-${after ?? 'first'}`;

/**
 * A trace of a suspected leak (issue 49 item 5, docs/media.md), on a queue of its own (one at a
 * time per worker: it decodes the leak and the post's references with ffmpeg), so a trace never
 * holds up a post or a chat file. From the outbox with the trace's row; jobId `trace-leak-<traceId>`
 * (traceLeakJobId); a trace already answered is not run again.
 */
export interface ForensicJobs {
  'trace-leak': { traceId: string };
}
export const traceLeakJobId = (traceId: string) => `trace-leak-${traceId}`;

export interface JobsByQueue {
  mail: MailJobs;
  maintenance: MaintenanceJobs;
  media: MediaJobs & AvatarJobs;
  transcode: MediaJobs & LadderJobs;
  attachments: MessageMediaJobs;
  'attachment-transcode': MessageMediaJobs & AttachmentLadderJobs;
  exports: ExportJobs;
  notifications: NotificationJobs;
  'notify-fanout': FanOutJobs;
  'notify-push': PushBatchJobs;
  'mass-messages': MassMessageJobs;
  forensics: ForensicJobs;
}

export type MediaQueueName = 'media' | 'transcode';

/** Video and audio go through ffmpeg on `transcode`; images, PDFs and documents on `media`. */
export function mediaQueueFor(kind: 'image' | 'video' | 'audio' | 'pdf' | 'document' | null): MediaQueueName {
  return kind === 'video' || kind === 'audio' ? 'transcode' : 'media';
}

export type AttachmentQueueName = 'attachments' | 'attachment-transcode';

/** A chat attachment's queue: video and audio through ffmpeg on `attachment-transcode`, the rest on `attachments`. */
export function attachmentQueueFor(kind: 'image' | 'video' | 'audio' | 'pdf' | 'document'): AttachmentQueueName {
  return mediaQueueFor(kind) === 'transcode' ? 'attachment-transcode' : 'attachments';
}

export const processPostJobId = (postId: string) => `process-post-${postId}`;

/**
 * The HLS ladder of a post's videos (issue 49, docs/media.md), from the MP4s its processing made:
 * queued through the outbox when a post with a video completes, and by the backfill for posts
 * made before ladders (`npm run backfill:ladders`). jobId `build-ladder-<postId>` (ladderJobId);
 * a file whose ladder is recorded already is skipped, so a rerun adds nothing.
 */
export interface LadderJobs {
  'build-ladder': { postId: string };
}
export const ladderJobId = (postId: string) => `build-ladder-${postId}`;

/**
 * The HLS ladder of a chat video (issue 49 item 1), on the chat videos' own queue
 * (`attachment-transcode`): queued through the outbox with the attachment becoming ready. jobId
 * `build-attachment-ladder-<id>`; an attachment with its ladder recorded is skipped.
 */
export interface AttachmentLadderJobs {
  'build-attachment-ladder': { attachmentId: string };
}
export const attachmentLadderJobId = (attachmentId: string) => `build-attachment-ladder-${attachmentId}`;

export type JobName<Q extends QueueName> = keyof JobsByQueue[Q] & string;
export type JobData<Q extends QueueName, N extends JobName<Q>> = JobsByQueue[Q][N];

/**
 * Every job name of every queue at run time, derived from the contracts above: each queue's
 * record must name exactly the keys of its interface (a name missing here, or one retired from
 * the interface, is a compile error). The worker checks its handlers against it at start
 * (worker/registry.ts assertComplete), and a unit test compares it with the registry.
 */
const JOB_NAME_SETS: { [Q in QueueName]: { [N in JobName<Q>]: true } } = {
  mail: {
    'confirm-email': true,
    'reset-password': true,
    'security-notice': true,
    'export-ready': true,
    'billing-receipt': true,
    'renewal-reminder': true,
    'creator-unavailable': true,
    'checkout-payment-failed': true,
    'renewal-failed': true,
    'new-message': true,
    'payout-failed': true,
  },
  maintenance: {
    'billing-maintenance': true,
    'undo-duplicate-checkout': true,
    'cancel-provider-subscription': true,
    'provider-refund': true,
    'send-payout': true,
    'weekly-payouts': true,
    'reconcile-ledger': true,
    'publish-scheduled': true,
    'purge-expired': true,
    'delete-post-files': true,
    'expire-uploads': true,
    'requeue-processing': true,
    'delete-user-files': true,
    'expire-data-exports': true,
    'expire-unsent-attachments': true,
  },
  media: { 'process-post': true, 'process-avatar': true },
  transcode: { 'process-post': true, 'build-ladder': true },
  attachments: { 'process-message-attachment': true },
  'attachment-transcode': { 'process-message-attachment': true, 'build-attachment-ladder': true },
  exports: { 'build-data-export': true },
  notifications: { 'deliver-notification': true, 'deliver-notifications': true, 'send-push': true },
  'notify-fanout': { 'fan-out-post': true, 'deliver-notification': true, 'send-push': true },
  'notify-push': { 'send-push-batch': true },
  'mass-messages': { 'deliver-mass-message': true },
  forensics: { 'trace-leak': true },
};

export const JOB_NAMES = Object.fromEntries(QUEUE_NAMES.map((queue) => [queue, Object.keys(JOB_NAME_SETS[queue])])) as {
  [Q in QueueName]: JobName<Q>[];
};
