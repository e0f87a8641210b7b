/** `npm run serve`: the API, realtime and SPA server; RUN_WORKER=true adds the workers to the same process. */
import { loadConfig } from '../core/config';
import { assertServicesReachable } from '../core/preflight';
import { runOrExit } from '../core/run-or-exit';
import { runServer } from '../server/serve';
import { inProcessWorkers } from './in-process-workers';

await runOrExit(async () => {
  const config = loadConfig();
  await assertServicesReachable(config);
  await runServer(config, { alongside: config.RUN_WORKER ? inProcessWorkers : undefined });
});
