import { accessSync, constants, rmSync } from 'node:fs';

/**
 * ffmpeg and ffprobe never outlive the worker that started them, however it ends:
 *   - a graceful stop aborts the job, which kills its process (ffmpeg-run.ts);
 *   - process.exit (an uncaught exception, the shutdown grace running out) runs the 'exit'
 *     handler here, which kills every child still running and removes the jobs' temp folders;
 *   - a hard kill (SIGKILL, the OOM killer) runs no handler at all: on Linux each child is started
 *     through util-linux's `setpriv --pdeathsig KILL`, so the kernel kills it when the worker dies.
 *     Without setpriv (not Linux) such a child runs on until its own time limit; the folders left
 *     behind are swept at the next start (temp-dirs.ts).
 * ffmpeg-run.ts stays the one module that starts processes; this one only says how and keeps count.
 */

/** What is needed of a started process (node's ChildProcess). */
interface Child {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal: NodeJS.Signals): boolean;
  once(event: 'exit', listener: () => void): unknown;
}

const live = new Set<Child>();
const tempDirs = new Set<string>();
let exitHooked = false;

function hookExit() {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const child of live) {
      try {
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
}

const SETPRIV_PATHS = ['/usr/bin/setpriv', '/bin/setpriv'];
let setpriv: string | null | undefined;

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `[command, args]` that run `binary args` so that it dies with this process: through
 * `setpriv --pdeathsig KILL --` on Linux when util-linux has it (every Debian and Ubuntu). A
 * binary that cannot be run is started as is, so that it fails as such (ENOENT, 'could not run
 * ffmpeg', retried) instead of setpriv exiting 127 like ffmpeg refusing a file.
 */
export function withDeathSignal(binary: string, args: readonly string[]): [string, string[]] {
  if (setpriv === undefined) setpriv = process.platform === 'linux' ? (SETPRIV_PATHS.find(executable) ?? null) : null;
  if (!setpriv || !executable(binary)) return [binary, [...args]];
  return [setpriv, ['--pdeathsig', 'KILL', '--', binary, ...args]];
}

/** The arguments the binary itself got, from a child's spawnargs (without a setpriv prefix). */
export function binaryArgs(spawnargs: readonly string[]): string[] {
  return spawnargs[0] === setpriv && spawnargs[1] === '--pdeathsig' ? spawnargs.slice(5) : spawnargs.slice(1);
}

/** Follows a started child until it exits: killed if this process exits first. */
export function trackChild(child: Child): void {
  hookExit();
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  live.add(child);
  child.once('exit', () => live.delete(child));
}

/** A job's temp folder, removed on process exit if the job could not remove it itself; call the result once it is gone. */
export function trackTempDir(dir: string): () => void {
  hookExit();
  tempDirs.add(dir);
  return () => tempDirs.delete(dir);
}
