/** `npm run worker`: the BullMQ workers on their own (scale by running more copies). */
import { loadConfig } from '../core/config';
import { createDeps } from '../core/create-deps';
import { assertServicesReachable } from '../core/preflight';
import { runOrExit } from '../core/run-or-exit';
import { createWorkerMetricsServer } from './metrics-server';
import { runWorkers } from './workers';

await runOrExit(async () => {
  const config = loadConfig();
  await assertServicesReachable(config);
  const deps = createDeps(config, 'worker');
  const workers = await runWorkers(deps);
  // job durations are measured here; WORKER_METRICS_PORT serves them (the server's /metrics has the rest)
  const metrics = config.WORKER_METRICS_PORT
    ? createWorkerMetricsServer(config.METRICS_TOKEN).listen(config.WORKER_METRICS_PORT, config.HOST)
    : null;
  deps.log.info('worker started');
  const stop = async () => {
    // active jobs finish within WORKER_SHUTDOWN_GRACE_MS or go back to the queue; a job cut off
    // by a kill is picked up again as stalled.
    metrics?.close();
    await workers.close();
    await deps.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
});
