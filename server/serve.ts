import type { Config } from './config';
import { createApp } from './app';
import { createDeps } from './create-deps';
import { scheduleRepeatableJobs, startWorkers, type RunningWorkers } from '../worker/workers';

const SHUTDOWN_GRACE_MS = 15_000;

/**
 * Runs the HTTP server (tRPC, Socket.IO, SPA) and, when asked, the workers in the same process,
 * and drains them in order on SIGINT/SIGTERM: stop accepting, finish jobs, close queues and the pool.
 */
export async function runServer(config: Config, opts: { withWorker: boolean }): Promise<void> {
  const deps = createDeps(config);
  const app = createApp(deps);
  let workers: RunningWorkers | null = null;
  if (opts.withWorker) {
    workers = await startWorkers(deps);
    await scheduleRepeatableJobs(deps.queues);
  }
  await new Promise<void>((resolve, reject) => {
    app.httpServer.once('error', reject);
    app.httpServer.listen(config.PORT, config.HOST, resolve);
  });
  deps.log.info(`CreatorHub is running on ${config.appUrl}${opts.withWorker ? ' (with the worker)' : ''}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      deps.log.warn('second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    deps.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      deps.log.error('shutdown took too long: exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    await app.close();
    await workers?.close();
    await deps.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
