/** `npm run worker`: the BullMQ workers on their own (scale by running more copies). */
import { loadConfig } from '../server/config';
import { createDeps } from '../server/create-deps';
import { assertServicesReachable } from '../server/preflight';
import { runOrExit } from '../server/run-or-exit';
import { scheduleRepeatableJobs, startWorkers } from './workers';

await runOrExit(async () => {
  const config = loadConfig();
  await assertServicesReachable(config);
  const deps = createDeps(config, 'worker');
  const workers = await startWorkers(deps);
  await scheduleRepeatableJobs(deps.queues);
  deps.log.info('worker started');
  const stop = async () => {
    // close() waits for active jobs; a job cut off by a kill is picked up again as stalled.
    await workers.close();
    await deps.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
});
