/** `npm run serve`: the API, realtime and SPA server (add RUN_WORKER=true to run the workers in-process). */
import { loadConfig } from './config';
import { runOrExit } from './run-or-exit';
import { assertServicesReachable } from './preflight';
import { runServer } from './serve';

await runOrExit(async () => {
  const config = loadConfig();
  await assertServicesReachable(config);
  await runServer(config, { withWorker: config.RUN_WORKER });
});
