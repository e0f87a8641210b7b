import type { Alongside } from '../server/serve';
import { runWorkers } from '../worker/workers';

/** The workers inside the server's process (`npm start`, `npm run serve` with RUN_WORKER=true), composed here so server/ never imports worker/. */
export const inProcessWorkers: Alongside = { name: 'the worker', start: runWorkers };
