import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAMES, type JobData, type JobName, type QueueName } from '../../common/jobs';

/** Retries with exponential backoff; completed jobs are trimmed so Redis stays small. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export type Queues = {
  [Q in QueueName]: Queue;
} & {
  add<Q extends QueueName, N extends JobName<Q>>(queue: Q, name: N, data: JobData<Q, N>, opts?: JobsOptions): Promise<void>;
  close(): Promise<void>;
};

export function createQueues(connection: Redis, prefix: string): Queues {
  const queues = Object.fromEntries(
    QUEUE_NAMES.map((name) => [name, new Queue(name, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS })]),
  ) as Record<QueueName, Queue>;
  return {
    ...queues,
    async add(queue, name, data, opts) {
      await queues[queue].add(name, data, opts);
    },
    async close() {
      await Promise.all(Object.values(queues).map((q) => q.close()));
    },
  };
}
