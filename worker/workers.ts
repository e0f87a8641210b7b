import { Worker, WaitingError, type Queue, type WorkerOptions } from 'bullmq';
import { QUEUE_NAMES, type QueueName } from '../common/jobs';
import type { Config } from '../core/config';
import { jobDuration } from '../core/metrics';
import { createRedis } from '../core/redis';
import { mailHandlers } from './jobs/mail';
import { maintenanceHandlers } from './jobs/maintenance';
import { mediaHandlers, transcodeHandlers } from './jobs/media';
import { assertComplete, handlerFor, type HandlerRegistry, type WorkerDeps } from './registry';

export const registry: HandlerRegistry = {
  mail: mailHandlers,
  maintenance: maintenanceHandlers,
  media: mediaHandlers,
  transcode: transcodeHandlers,
};

/**
 * Per queue and worker copy: mail 4 at a time, maintenance 1; `media` (sharp: images,
 * documents) MEDIA_CONCURRENCY (4), `transcode` (ffmpeg: video, audio) TRANSCODE_CONCURRENCY (1),
 * as one ffmpeg already uses every core. Media jobs hold their lock for MEDIA_LOCK_DURATION_MS
 * (renewed while they run): a worker that dies mid-job loses the lock and the stalled check
 * (every MEDIA_STALLED_INTERVAL_MS, by any worker) puts the job back in the queue, twice at most
 * before it fails.
 */
export function workerOptions(queue: QueueName, config: Config): Partial<WorkerOptions> {
  switch (queue) {
    case 'mail':
      return { concurrency: 4 };
    case 'maintenance':
      return { concurrency: 1 };
    case 'media':
    case 'transcode':
      return {
        concurrency: queue === 'media' ? config.MEDIA_CONCURRENCY : config.TRANSCODE_CONCURRENCY,
        lockDuration: config.MEDIA_LOCK_DURATION_MS,
        stalledInterval: config.MEDIA_STALLED_INTERVAL_MS,
        maxStalledCount: 2,
      };
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
  assertComplete(registry, {
    mail: ['confirm-email', 'reset-password'],
    maintenance: ['purge-expired', 'delete-post-files', 'expire-uploads', 'requeue-processing'],
    media: ['process-post'],
    transcode: ['process-post'],
  });
  const { config, log } = deps;
  const connections = queues.map(() => createRedis(config.REDIS_URL, { forBullmq: true }));
  const workers = queues.map(
    (queue, i) =>
      new Worker(
        queue,
        // three parameters: BullMQ then passes the AbortSignal used on shutdown
        async (job, token, signal) => {
          const started = Date.now();
          const timer = jobDuration.startTimer({ queue, job: job.name });
          try {
            const result = await handlerFor(registry, queue, job.name)(job as never, deps, { token, signal });
            timer({ outcome: 'completed' });
            log.info({ queue, job: job.name, jobId: job.id, ms: Date.now() - started }, 'job done');
            return result;
          } catch (error) {
            timer({ outcome: error instanceof WaitingError ? 'released' : 'failed' });
            throw error;
          }
        },
        { connection: connections[i]!, prefix: config.REDIS_PREFIX, ...workerOptions(queue, config) },
      ),
  );
  for (const worker of workers) {
    worker.on('failed', (job, err) =>
      log.warn({ queue: worker.name, job: job?.name, jobId: job?.id, attempts: job?.attemptsMade, err }, 'job failed'),
    );
    worker.on('stalled', (jobId) => log.warn({ queue: worker.name, jobId }, 'job stalled: its worker stopped; queued again'));
    worker.on('error', (err) => log.error({ queue: worker.name, err }, 'worker error'));
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

/** The workers with the repeatable jobs scheduled: `npm run worker`, or inside the server's process (scripts/). */
export async function runWorkers(deps: WorkerDeps): Promise<RunningWorkers> {
  const workers = await startWorkers(deps);
  await scheduleRepeatableJobs(deps.queues);
  return workers;
}

/** Idempotent: upserting a scheduler with the same id never duplicates it. */
export async function scheduleRepeatableJobs(queues: { maintenance: Queue }) {
  await queues.maintenance.upsertJobScheduler('purge-expired', { every: 60 * 60_000 }, { name: 'purge-expired', data: {} });
  await queues.maintenance.upsertJobScheduler('expire-uploads', { every: 60 * 60_000 }, { name: 'expire-uploads', data: {} });
  await queues.maintenance.upsertJobScheduler('requeue-processing', { every: 10 * 60_000 }, { name: 'requeue-processing', data: {} });
}
