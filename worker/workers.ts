import { Worker } from 'bullmq';
import { QUEUE_NAMES, type QueueName } from '../common/jobs';
import { createRedis } from '../server/redis';
import { mailHandlers } from './jobs/mail';
import { maintenanceHandlers } from './jobs/maintenance';
import { assertComplete, handlerFor, type HandlerRegistry, type WorkerDeps } from './registry';

export const registry: HandlerRegistry = {
  mail: mailHandlers,
  maintenance: maintenanceHandlers,
};

const CONCURRENCY: Record<QueueName, number> = { mail: 4, maintenance: 1 };

export interface RunningWorkers {
  workers: Worker[];
  /** lets active jobs finish (or hands them back to the queue) and closes connections */
  close(): Promise<void>;
}

export async function startWorkers(deps: WorkerDeps, queues: readonly QueueName[] = QUEUE_NAMES): Promise<RunningWorkers> {
  assertComplete(registry, { mail: ['confirm-email', 'reset-password'], maintenance: ['purge-expired', 'delete-post-files'] });
  const { config, log } = deps;
  const connections = queues.map(() => createRedis(config.REDIS_URL, { forBullmq: true }));
  const workers = queues.map(
    (queue, i) =>
      new Worker(
        queue,
        async (job) => {
          const started = Date.now();
          const result = await handlerFor(registry, queue, job.name)(job as never, deps);
          log.info({ queue, job: job.name, jobId: job.id, ms: Date.now() - started }, 'job done');
          return result;
        },
        { connection: connections[i]!, prefix: config.REDIS_PREFIX, concurrency: CONCURRENCY[queue] },
      ),
  );
  for (const worker of workers) {
    worker.on('failed', (job, err) =>
      log.warn({ queue: worker.name, job: job?.name, jobId: job?.id, attempts: job?.attemptsMade, err }, 'job failed'),
    );
    worker.on('error', (err) => log.error({ queue: worker.name, err }, 'worker error'));
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  return {
    workers,
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      connections.forEach((c) => c.disconnect());
    },
  };
}

/** Idempotent: upserting a scheduler with the same id never duplicates it. */
export async function scheduleRepeatableJobs(queues: { maintenance: import('bullmq').Queue }) {
  await queues.maintenance.upsertJobScheduler('purge-expired', { every: 60 * 60_000 }, { name: 'purge-expired', data: {} });
}
