import type { Config } from '../core/config';
import { createDeps } from '../core/create-deps';
import type { AppDeps } from '../core/deps';
import { createApp } from './app';

const SHUTDOWN_GRACE_MS = 15_000;

/** What runs beside the server in its process, on the same deps (scripts/ pass the workers). */
export interface Alongside {
  /** named in the start-up line: "... is running on <url> (with <name>)" */
  name: string;
  start(deps: AppDeps): Promise<{ close(): Promise<void> }>;
}

/**
 * Runs the HTTP server (tRPC, Socket.IO, SPA) and, when given, what runs alongside it, and drains
 * them in order on SIGINT/SIGTERM: stop accepting, finish jobs, close queues and the pool.
 */
export async function runServer(config: Config, opts: { alongside?: Alongside } = {}): Promise<void> {
  const deps = createDeps(config);
  const app = createApp(deps);
  const alongside = opts.alongside ? await opts.alongside.start(deps) : null;
  await new Promise<void>((resolve, reject) => {
    app.httpServer.once('error', reject);
    app.httpServer.listen(config.PORT, config.HOST, resolve);
  });
  deps.log.info(`CreatorHub is running on ${config.appUrl}${opts.alongside ? ` (with ${opts.alongside.name})` : ''}`);

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
    await alongside?.close();
    await deps.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
