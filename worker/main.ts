/** `npm run worker`: the BullMQ workers on their own (scale by running more copies). */
import type { Server } from 'node:http';
import { loadConfig } from '../core/config';
import { createDeps } from '../core/create-deps';
import { assertServicesReachable } from '../core/preflight';
import { handleProcessErrors } from '../core/process-errors';
import { runOrExit } from '../core/run-or-exit';
import { createWorkerMetricsServer } from './metrics-server';
import { runWorkers } from './workers';

/** Past the jobs' grace, closing the connections may take this long before the process gives up. */
const CLOSE_MARGIN_MS = 5_000;

await runOrExit(async () => {
  const config = loadConfig();
  await assertServicesReachable(config);
  const deps = createDeps(config, 'worker', { sessionCache: false });
  handleProcessErrors(deps.log);
  // the signal handlers are in place before anything starts: a stop during the start waits for it
  const starting = runWorkers(deps);
  let metrics: Server | null = null;
  let stoppingSince = 0;
  const stop = async (signal: string) => {
    if (stoppingSince) {
      // Ctrl-C under npm delivers SIGINT twice at once (from the terminal and forwarded by npm)
      if (Date.now() - stoppingSince < 1_000) return;
      deps.log.warn('second signal: exiting now');
      process.exit(1);
    }
    stoppingSince = Date.now();
    deps.log.info({ signal }, 'worker stopping');
    // Active jobs finish within WORKER_SHUTDOWN_GRACE_MS or are aborted (ffmpeg killed) and go
    // back to the queue; a job cut off by a kill is picked up again as stalled.
    const timer = setTimeout(() => {
      deps.log.error('worker did not stop in time: exiting');
      process.exit(1);
    }, config.WORKER_SHUTDOWN_GRACE_MS + CLOSE_MARGIN_MS);
    timer.unref();
    metrics?.close();
    const workers = await starting.catch(() => null);
    await workers?.close();
    await deps.close();
    deps.log.info('worker stopped');
    process.exit(0);
  };
  // `on`, not `once`: a second signal exits at once instead of killing the process unlogged
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  await starting;
  if (stoppingSince) return;
  // job durations are measured here; WORKER_METRICS_PORT serves them (the server's /metrics has the rest)
  metrics = config.WORKER_METRICS_PORT ? createWorkerMetricsServer(config.METRICS_TOKEN).listen(config.WORKER_METRICS_PORT, config.HOST) : null;
  deps.log.info('worker started');
});
