import type { Logger } from 'pino';

let installed = false;

/**
 * The last net of a long-running process (server, worker). A promise rejection nobody handled is
 * a bug in one request or job, not in the process: it is logged with its stack and the process
 * keeps serving. An uncaught exception may have left any state half-changed, so it is logged and
 * the process exits with 1 for its supervisor (Docker, systemd, Kubernetes) to start a clean one;
 * 'exit' handlers still run (ffmpeg children are killed, worker/media/child-processes.ts).
 */
export function handleProcessErrors(log: Logger): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled promise rejection (logged; the process keeps running)');
  });
  process.on('uncaughtException', (err, origin) => {
    log.fatal({ err, origin }, 'uncaught exception: exiting for the supervisor to restart the process');
    log.flush?.();
    process.exit(1);
  });
}
