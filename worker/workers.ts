import { Worker, WaitingError, type Job, type Queue, type WorkerOptions } from 'bullmq';
import sharp from 'sharp';
import { JOB_NAMES, QUEUE_NAMES, type QueueName } from '../common/jobs';
import type { Config } from '../core/config';
import { isDependencyUnavailable, throttledReporter } from '../core/dependency-errors';
import { jobDuration } from '../core/metrics';
import { markOutboxDone, relayOutbox } from '../core/outbox/outbox';
import { clusterNodesOf, createRedis, queuePrefix } from '../core/redis';
import { requeueLostJobs } from './jobs/lost-jobs';
import { requeueLostAttachmentJobs } from './jobs/message-attachment';
import { resumeStalledMassMessages } from './jobs/stalled-mass-messages';

import { mailHandlers } from './jobs/mail';
import { maintenanceHandlers } from './jobs/maintenance';
import { exportHandlers } from './jobs/exports';
import { buildAttachmentLadder } from './jobs/attachment-ladder';
import { buildLadder } from './jobs/ladder';
import { mediaHandlers, transcodeHandlers } from './jobs/media';
import { attachmentHandlers, processMessageAttachment } from './jobs/message-attachment';
import { fanOutHandlers, notificationHandlers, pushBatchHandlers } from './jobs/notifications';
import { massMessageHandlers } from './jobs/mass-messages';
import { traceLeak } from './jobs/leak-trace';
import { assertComplete, handlerFor, type HandlerRegistry, type JobContext, type WorkerDeps } from './registry';
import { sweepStaleMediaTempDirs } from './temp-dirs';

export const registry: HandlerRegistry = {
  mail: mailHandlers,
  maintenance: maintenanceHandlers,
  media: mediaHandlers,
  transcode: { ...transcodeHandlers, 'build-ladder': buildLadder },
  attachments: attachmentHandlers,
  'attachment-transcode': { 'process-message-attachment': processMessageAttachment, 'build-attachment-ladder': buildAttachmentLadder },
  exports: exportHandlers,
  notifications: notificationHandlers,
  'notify-fanout': fanOutHandlers,
  'notify-push': pushBatchHandlers,
  'mass-messages': massMessageHandlers,
  forensics: { 'trace-leak': traceLeak },
};

/**
 * Per queue and worker copy: mail 4 at a time, maintenance 1, exports 1 (a zip reads every stored
 * file of an account: one at a time, on a queue of its own so billing never waits behind it); `media` (sharp: images,
 * documents) MEDIA_CONCURRENCY (4), `transcode` (ffmpeg: video, audio) TRANSCODE_CONCURRENCY (1),
 * as one ffmpeg already uses every core. Chat attachments have slots of their own beside them,
 * `attachments` ATTACHMENT_CONCURRENCY (2) and `attachment-transcode`
 * ATTACHMENT_TRANSCODE_CONCURRENCY (1): a post's job never waits behind a fan's file (they share
 * the CPU, not a slot). Media jobs hold their lock for MEDIA_LOCK_DURATION_MS
 * (20 s, renewed every 10 s while they run): a worker that dies mid-job loses the lock and the
 * stalled check (every MEDIA_STALLED_INTERVAL_MS, 10 s, by any worker) puts the job back in the
 * queue within 30 s, twice at most before it fails.
 */
export function workerOptions(queue: QueueName, config: Config): Partial<WorkerOptions> {
  switch (queue) {
    case 'mail':
      return { concurrency: 4 };
    case 'maintenance':
    case 'exports':
      return { concurrency: 1 };
    // notifications: short jobs, mostly waiting on a push service; the fan-out's own queue runs
    // beside it (a 10,000-subscriber post never holds up a message's push)
    case 'notifications':
    case 'notify-fanout':
      return { concurrency: 8 };
    // a fan-out's pushes, a batch per job, PUSH_BATCH_CONCURRENCY in flight each: one batch at a
    // time keeps the worker's CPU for the batches' rows and for everyone else's jobs (issue 50)
    case 'notify-push':
      return { concurrency: 1 };
    // messages to many: two creators' at a time, each a batch per job, so they take turns
    case 'mass-messages':
      return { concurrency: 2 };
    // a trace decodes a leak and two references with ffmpeg: one at a time, locked as media jobs are
    case 'forensics':
      return { concurrency: 1, lockDuration: config.MEDIA_LOCK_DURATION_MS, stalledInterval: config.MEDIA_STALLED_INTERVAL_MS, maxStalledCount: 2 };
    case 'media':
    case 'transcode':
    case 'attachments':
    case 'attachment-transcode':
      return {
        concurrency: {
          media: config.MEDIA_CONCURRENCY,
          transcode: config.TRANSCODE_CONCURRENCY,
          attachments: config.ATTACHMENT_CONCURRENCY,
          'attachment-transcode': config.ATTACHMENT_TRANSCODE_CONCURRENCY,
        }[queue],
        lockDuration: config.MEDIA_LOCK_DURATION_MS,
        stalledInterval: config.MEDIA_STALLED_INTERVAL_MS,
        maxStalledCount: 2,
      };
  }
}

/**
 * What a worker does with one job it took: the job's handler, then its outbox row (if it has one)
 * is done, so the relay no longer hands it back. Work a handler must not lose (a chain's next step,
 * a notification's pushes) is written as outbox rows before it returns. Exported for the tests
 * that run a chain one job at a time (tests/helpers/chain-steps.ts).
 */
export async function runJob(deps: WorkerDeps, queue: QueueName, job: Job, context: JobContext): Promise<unknown> {
  const started = Date.now();
  const timer = jobDuration.startTimer({ queue, job: job.name });
  try {
    const result = await handlerFor(registry, queue, job.name)(job as never, deps, context);
    if (job.id) await markOutboxDone(deps.db, job.id);
    timer({ outcome: 'completed' });
    deps.log.info({ queue, job: job.name, jobId: job.id, ms: Date.now() - started }, 'job done');
    return result;
  } catch (error) {
    timer({ outcome: error instanceof WaitingError ? 'released' : 'failed' });
    throw error;
  }
}

export interface RunningWorkers {
  workers: Worker[];
  /**
   * Stops taking jobs and lets active ones finish for WORKER_SHUTDOWN_GRACE_MS; then asks them
   * to stop (media jobs kill ffmpeg and hand the job back to the queue), and closes connections.
   */
  close(): Promise<void>;
}

export async function startWorkers(deps: WorkerDeps, queues: readonly QueueName[] = QUEUE_NAMES): Promise<RunningWorkers> {
  assertComplete(registry, JOB_NAMES);
  const { config, log } = deps;
  // BullMQ re-emits its connections' errors as the worker's 'error' (logged below)
  const connections = queues.map(() => createRedis(config.REDIS_URL, { forBullmq: true, clusterNodes: clusterNodesOf(config) }));
  // during a Redis outage every worker reports every reconnect attempt: one line per 10 s
  const reportOutage = throttledReporter((err, suppressed) => log.warn({ err, suppressed }, 'worker: Redis unavailable (reconnecting by itself)'));
  const workers = queues.map(
    (queue, i) =>
      new Worker(
        queue,
        // three parameters: BullMQ then passes the AbortSignal used on shutdown
        (job, token, signal) => runJob(deps, queue, job, { token, signal }),
        { connection: connections[i]!, prefix: queuePrefix(config), ...workerOptions(queue, config) },
      ),
  );
  for (const worker of workers) {
    worker.on('failed', (job, err) =>
      log.warn({ queue: worker.name, job: job?.name, jobId: job?.id, attempts: job?.attemptsMade, err }, 'job failed'),
    );
    worker.on('stalled', (jobId) => log.warn({ queue: worker.name, jobId }, 'job stalled: its worker stopped; queued again'));
    worker.on('error', (err) => (isDependencyUnavailable(err) ? reportOutage(err) : log.error({ queue: worker.name, err }, 'worker error')));
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  return {
    workers,
    async close() {
      const cancel = setTimeout(() => {
        log.warn('shutdown grace over: handing active jobs back to the queue');
        for (const worker of workers) worker.cancelAllJobs('shutdown');
      }, config.WORKER_SHUTDOWN_GRACE_MS);
      cancel.unref();
      await Promise.all(workers.map((w) => w.close()));
      clearTimeout(cancel);
      connections.forEach((c) => c.disconnect());
    },
  };
}

/**
 * The workers as a process runs them (`npm run worker`, or inside the server's process:
 * scripts/): the media temp folders of dead workers are swept, the repeatable jobs scheduled,
 * and the keeper started (below).
 */
export async function runWorkers(deps: WorkerDeps): Promise<RunningWorkers> {
  // libvips' operation cache (50 MB, 100 operations) only helps when the same file is read
  // twice; every upload is read once, so it would only keep memory resident between jobs
  sharp.cache(false);
  const swept = await sweepStaleMediaTempDirs();
  if (swept.length) deps.log.warn({ folders: swept.length }, 'removed the media and export temp folders of workers that are gone');
  const workers = await startWorkers(deps);
  // the lost-job sweep runs from the keeper now; a schedule an older version left goes
  await deps.queues.maintenance.removeJobScheduler('requeue-processing');
  await ensureJobSchedulers(deps.queues);
  const keeper = startKeeper(deps);
  return {
    workers: workers.workers,
    async close() {
      await keeper.stop();
      await workers.close();
    },
  };
}

/** The repeatable jobs: each id once (BullMQ job schedulers, kept in Redis). */
const SCHEDULES = [
  { id: 'purge-expired', every: 60 * 60_000 },
  { id: 'expire-uploads', every: 60 * 60_000 },
  // renewals happen up to an hour ahead (domain/billing/periods.ts), so every 10 minutes keeps access unbroken
  { id: 'billing-maintenance', every: 10 * 60_000 },
  { id: 'expire-data-exports', every: 60 * 60_000 },
  // unsent chat attachments live UNSENT_ATTACHMENT_TTL_HOURS (6): a quarter of an hour late at most
  { id: 'expire-unsent-attachments', every: 15 * 60_000 },
  // the first run of each payout week pays (one payout per creator and week, by its key)
  { id: 'weekly-payouts', every: 60 * 60_000 },
  // daily at heart: yesterday's books checked again four times a day, today's as they grow
  { id: 'reconcile-ledger', every: 6 * 60 * 60_000 },
  // a scheduled post goes out within half a minute of its time
  { id: 'publish-scheduled', every: 30_000 },
] as const;

/**
 * Schedules the repeatable jobs missing from Redis (all of them after Redis lost its data):
 * those present are left as they are, so their next run is not pushed back.
 */
export async function ensureJobSchedulers(queues: { maintenance: Queue }): Promise<string[]> {
  const created: string[] = [];
  for (const { id, every } of SCHEDULES) {
    if (await queues.maintenance.getJobScheduler(id)) continue;
    await queues.maintenance.upsertJobScheduler(id, { every }, { name: id, data: {} });
    created.push(id);
  }
  return created;
}

/**
 * What must not depend on Redis keeping a schedule: every LOST_JOB_SWEEP_INTERVAL_MS (20 s),
 * from this process's own timer, the job schedules are re-created if Redis lost them, the
 * posts whose job is lost are queued again (jobs/lost-jobs.ts), the outbox's rows whose job
 * is missing or failed are handed back (core/outbox), and messages to many that stopped moving are
 * resumed or marked failed (jobs/stalled-mass-messages.ts). So after Redis comes back, even
 * empty, every processing post is queued again within LOST_JOB_AFTER_MS + the interval (< 1 min).
 */
function startKeeper(deps: WorkerDeps): { stop(): Promise<void> } {
  const { config, log } = deps;
  const report = throttledReporter((err, suppressed) => log.warn({ err, suppressed }, 'keeper: could not check schedules and lost jobs (will try again)'));
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= (async () => {
      try {
        const created = await ensureJobSchedulers(deps.queues);
        if (created.length) log.warn({ schedules: created }, 'job schedules were missing from Redis: created again');
        await requeueLostJobs(deps, config.LOST_JOB_AFTER_MS);
        await requeueLostAttachmentJobs(deps, config.LOST_JOB_AFTER_MS);
        await relayOutbox(deps, config.LOST_JOB_AFTER_MS);
        // after the relay, which may just have given up on a chain's row
        await resumeStalledMassMessages(deps, config.LOST_JOB_AFTER_MS);
      } catch (error) {
        report(error);
      }
    })().finally(() => {
      running = null;
    });
  };
  tick();
  const timer = setInterval(tick, config.LOST_JOB_SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
