import { postExists, purgeExpiredCredentials } from '../../domain/maintenance/maintenance.queries';
import path from 'node:path';
import type { QueueHandlers } from '../registry';
import { deleteQueuedFiles, expireDataExports } from './account-files';
import { billingMaintenance, cancelProviderSubscriptionJob, providerRefundJob, undoDuplicateCheckoutJob } from './billing';
import { requeueLostJobs } from './lost-jobs';
import { reconcileLedgerJob, sendPayoutJob, weeklyPayoutsJob } from './payouts';
import { publishScheduledPosts } from './scheduled-posts';
import { expireUnsentAttachments } from './unsent-attachments';
import { expireAbandonedGroups } from './upload-groups';
import { sweepIncomingUploads } from './uploads-sweep';

export const maintenanceHandlers: QueueHandlers<'maintenance'> = {
  /** Renewals, past due, expiry, reminders (issue 11; worker/jobs/billing.ts). */
  async 'billing-maintenance'(_job, deps) {
    return billingMaintenance(deps);
  },

  /** A second Stripe checkout for the same creator: cancelled now and refunded (worker/jobs/billing.ts). */
  async 'undo-duplicate-checkout'(job, deps) {
    return undoDuplicateCheckoutJob(deps, job.data);
  },

  /** A subscription ended here by a deletion is cancelled at its provider (worker/jobs/billing.ts). */
  async 'cancel-provider-subscription'(job, deps) {
    return cancelProviderSubscriptionJob(deps, job.data);
  },

  /** A refund through the provider that took the charge, then its ledger row (worker/jobs/billing.ts). */
  async 'provider-refund'(job, deps) {
    return providerRefundJob(deps, job.data);
  },

  /** A payout's transfer, then paid or failed (worker/jobs/payouts.ts). */
  async 'send-payout'(job, deps) {
    return sendPayoutJob(deps, job.data);
  },

  /** The week's automatic payouts (worker/jobs/payouts.ts). */
  async 'weekly-payouts'(_job, deps) {
    return weeklyPayoutsJob(deps);
  },

  /** The ledger reconciled with our rows and the providers' records (worker/jobs/payouts.ts). */
  async 'reconcile-ledger'(_job, deps) {
    return reconcileLedgerJob(deps);
  },

  async 'purge-expired'(_job, { db, clock }) {
    return purgeExpiredCredentials(db, clock.now());
  },

  /**
   * Removes the files of a deleted post. Idempotent: deleting a missing file is fine, so a retry
   * after a partial run finishes the rest. Refuses to touch files of a post that still exists
   * (a job queued by mistake must not strip a live post of its media).
   */
  async 'delete-post-files'(job, { db, storage, log }) {
    const { postId, keys } = job.data;
    if (await postExists(db, postId)) {
      log.warn({ postId }, 'delete-post-files skipped: the post still exists');
      return { skipped: true, deleted: 0 };
    }
    for (const key of keys) await storage.delete(key);
    return { skipped: false, deleted: keys.length };
  },

  /**
   * Abandoned partial uploads (older than UPLOAD_EXPIRY_HOURS) leave UPLOADS_DIR, and the files
   * of posts of several whose other files never arrived leave storage (upload-groups.ts).
   */
  async 'expire-uploads'(_job, deps) {
    const maxAgeMs = deps.config.UPLOAD_EXPIRY_HOURS * 3_600_000;
    const incoming = await sweepIncomingUploads(path.resolve(deps.config.UPLOADS_DIR), maxAgeMs);
    return { ...incoming, ...(await expireAbandonedGroups(deps, maxAgeMs)) };
  },

  /**
   * The lost-job sweep (lost-jobs.ts), which each worker also runs on a timer of its own
   * (workers.ts): kept as a job so that an operator can start one from Bull Board.
   */
  async 'requeue-processing'(_job, deps) {
    return requeueLostJobs(deps, deps.config.LOST_JOB_AFTER_MS);
  },

  /** Files of a deleted account or of its deleted data (issue 13), listed in storage_deletions. */
  async 'delete-user-files'(job, deps) {
    return deleteQueuedFiles(deps, job.data.batch);
  },

  /** Chat attachments never sent in a message leave storage and the table (unsent-attachments.ts). */
  async 'expire-unsent-attachments'(_job, deps) {
    return expireUnsentAttachments(deps);
  },

  /** Scheduled posts whose time has come are published (scheduled-posts.ts). */
  async 'publish-scheduled'(_job, deps) {
    return publishScheduledPosts(deps);
  },

  /** Exports past their 7 days leave storage and the table. */
  async 'expire-data-exports'(_job, deps) {
    return expireDataExports(deps);
  },
};
