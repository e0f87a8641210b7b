import type { Config } from '../core/config';
import { createDeps } from '../core/create-deps';
import type { AppDeps } from '../core/deps';
import { handleProcessErrors } from '../core/process-errors';
import { createApp } from './app';

/** What runs beside the server in its process, on the same deps (scripts/ pass the workers). */
export interface Alongside {
  /** named in the start-up line: "... is running on <url> (with <name>)" */
  name: string;
  start(deps: AppDeps): Promise<{ close(): Promise<void> }>;
}

/**
 * Runs the HTTP server (tRPC, Socket.IO, SPA) and, when given, what runs alongside it, and stops
 * them gracefully on SIGINT/SIGTERM, all within SHUTDOWN_GRACE_MS:
 *   1. stop accepting connections, disconnect sockets, close idle keep-alive connections and tell
 *      the busy ones to close after their response ('Connection: close');
 *   2. meanwhile the workers stop taking jobs, finish active ones for WORKER_SHUTDOWN_GRACE_MS,
 *      then abort them (ffmpeg is killed) and hand them back to the queue;
 *   3. once every request has been answered and every job is finished or handed back, close the
 *      queues, Redis and the pool, and exit 0.
 * Past the grace the remaining connections are cut and the process exits 1.
 */
export async function runServer(config: Config, opts: { alongside?: Alongside } = {}): Promise<void> {
  const deps = createDeps(config);
  handleProcessErrors(deps.log);
  const app = createApp(deps);
  let alongside: { close(): Promise<void> } | null = null;

  let stoppingSince = 0;
  const shutdown = async (signal: string) => {
    if (stoppingSince) {
      // Ctrl-C under npm delivers SIGINT twice at once (from the terminal and forwarded by npm)
      if (Date.now() - stoppingSince < 1_000) return;
      deps.log.warn('second signal: exiting now');
      process.exit(1);
    }
    stoppingSince = Date.now();
    deps.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      deps.log.error({ graceMs: config.SHUTDOWN_GRACE_MS }, 'shutdown took too long: cutting the remaining connections and exiting');
      app.httpServer.closeAllConnections();
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS);
    timer.unref();
    try {
      const stopAlongside = async () => {
        await starting.catch(() => null);
        await alongside?.close();
      };
      await Promise.all([app.close(), stopAlongside()]);
      await deps.close();
    } catch (error) {
      deps.log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
    deps.log.info({ ms: Date.now() - stoppingSince }, 'stopped');
    process.exit(0);
  };
  const starting = (async () => {
    alongside = opts.alongside ? await opts.alongside.start(deps) : null;
    // stopped while the workers started: never listen
    if (stoppingSince) return;
    await new Promise<void>((resolve, reject) => {
      app.httpServer.once('error', reject);
      app.httpServer.listen(config.PORT, config.HOST, resolve);
    });
  })();
  // in place before the start goes on (a stop during the start waits for it); `on`, not `once`:
  // a second signal exits at once instead of killing the process unlogged
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await starting;
  if (stoppingSince) return;
  deps.log.info(`CreatorHub is running on ${config.appUrl}${opts.alongside ? ` (with ${opts.alongside.name})` : ''}`);
}
