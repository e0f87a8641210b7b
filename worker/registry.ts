import type { Job } from 'bullmq';
import type { JobData, JobName, QueueName } from '../common/jobs';
import type { AppDeps } from '../core/deps';

/** The shared deps a job may use; `queues` are the producers, for jobs that queue other jobs (requeue-processing). */
export type WorkerDeps = Pick<AppDeps, 'config' | 'db' | 'log' | 'realtime' | 'storage' | 'queues' | 'payments' | 'clock' | 'redis'>;

/** What BullMQ passes besides the job: the lock token and a signal that fires when the worker is shutting down. */
export interface JobContext {
  token?: string;
  signal?: AbortSignal;
}

export type JobHandler<Q extends QueueName, N extends JobName<Q>> = (
  job: Job<JobData<Q, N>>,
  deps: WorkerDeps,
  context?: JobContext,
) => Promise<unknown>;

/** One handler for every job name of the queue: a missing one is a compile error. */
export type QueueHandlers<Q extends QueueName> = { [N in JobName<Q>]: JobHandler<Q, N> };

export type HandlerRegistry = { [Q in QueueName]: QueueHandlers<Q> };

/** Finds the handler for a job, refusing names the registry does not know (e.g. from a newer producer). */
export function handlerFor<Q extends QueueName>(registry: HandlerRegistry, queue: Q, name: string) {
  const handlers = registry[queue] as Record<string, JobHandler<Q, JobName<Q>> | undefined>;
  const handler = handlers[name];
  if (!handler) throw new Error(`No handler for job "${name}" on queue "${queue}"`);
  return handler;
}

/** At start: every queue has handlers and every job name has a function (guards against a registry built with casts). */
export function assertComplete(registry: HandlerRegistry, expected: { [Q in QueueName]: readonly JobName<Q>[] }) {
  for (const [queue, names] of Object.entries(expected) as [QueueName, string[]][]) {
    for (const name of names) {
      if (typeof (registry[queue] as Record<string, unknown>)[name] !== 'function') {
        throw new Error(`Worker refuses to start: job "${name}" on queue "${queue}" has no handler`);
      }
    }
  }
}
