import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAMES, type JobData, type JobName, type QueueName } from '../../common/jobs';
import { withTimeout } from '../dependency-errors';

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

export interface QueueOptions {
  /** `add` gives up after this long (Redis down): the caller answers 503 or relies on a sweep */
  addTimeoutMs?: number;
  /** a Queue re-emits its connection's errors: without a listener each one would end the process */
  onError?: (error: Error) => void;
}

export function createQueues(connection: Redis, prefix: string, opts: QueueOptions = {}): Queues {
  const queues = Object.fromEntries(
    QUEUE_NAMES.map((name) => {
      const queue = new Queue(name, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
      queue.on('error', opts.onError ?? (() => {}));
      return [name, queue];
    }),
  ) as Record<QueueName, Queue>;
  const bounded = <T>(work: Promise<T>, what: string) => (opts.addTimeoutMs ? withTimeout(work, opts.addTimeoutMs, 'redis', what) : work);
  return {
    ...queues,
    async add(queue, name, data, opts) {
      await bounded(queues[queue].add(name, data, opts), `queueing ${queue}/${name}`);
    },
    async close() {
      await Promise.all(Object.values(queues).map((q) => q.close()));
    },
  };
}
