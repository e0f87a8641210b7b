import { spawn } from 'node:child_process';
import { UPLOAD_TEXTS } from '../../common/texts';
import { MediaAbortedError, MediaContentError } from './errors';

/**
 * One ffmpeg or ffprobe process, bounded: killed with SIGKILL when its time limit passes or the
 * job is stopped, and the promise settles only once the process is gone, so nothing outlives
 * its job. The process is a plain child (same process group as the worker), so stopping the
 * worker's group stops it too.
 */

export interface RunOptions {
  /** the process is killed when it has run this long */
  timeoutMs: number;
  signal?: AbortSignal;
  /** with `-progress pipe:1` in the arguments: the media time written so far, in seconds */
  onProgressSeconds?: (seconds: number) => void;
  /** stdout beyond this is refused (ffprobe's JSON of a sane file is a few KB) */
  maxStdoutBytes?: number;
}

/** The process ran past its time limit and was killed. */
export class FfmpegTimeoutError extends Error {
  override readonly name = 'FfmpegTimeoutError';
}

/** The process ended with an error of its own; `stderr` is the end of what it said. */
export class FfmpegExitError extends Error {
  override readonly name = 'FfmpegExitError';
  constructor(
    readonly code: number | null,
    readonly exitSignal: NodeJS.Signals | null,
    readonly stderr: string,
  ) {
    super(`ffmpeg exited with ${exitSignal ? `signal ${exitSignal}` : `code ${code}`}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
}

/** The process wrote more than `maxStdoutBytes`. */
export class FfmpegOutputTooLargeError extends Error {
  override readonly name = 'FfmpegOutputTooLargeError';
}

const STDERR_TAIL_BYTES = 16 * 1024;
const DEFAULT_MAX_STDOUT = 4 * 1024 * 1024;

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs `binary args`; resolves with its output when it exits 0. `onSpawn` gets the pid (tests check it is gone). */
export function runFfmpeg(binary: string, args: readonly string[], opts: RunOptions, onSpawn?: (pid: number) => void): Promise<RunResult> {
  return new Promise<RunResult>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new MediaAbortedError('aborted'));
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) onSpawn?.(child.pid);
    const maxStdout = opts.maxStdoutBytes ?? DEFAULT_MAX_STDOUT;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let progressRest = '';
    let stopped: 'timeout' | 'aborted' | 'output' | null = null;
    let spawnError: Error | null = null;

    const stop = (why: NonNullable<typeof stopped>) => {
      if (stopped) return;
      stopped = why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timeout'), Math.max(1, opts.timeoutMs));
    const onAbort = () => stop('aborted');
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (opts.onProgressSeconds) {
        const lines = (progressRest + chunk.toString('latin1')).split('\n');
        progressRest = lines.pop() ?? '';
        for (const line of lines) {
          const match = /^out_time_us=(\d+)/.exec(line);
          if (match) opts.onProgressSeconds(Number(match[1]) / 1e6);
        }
        return;
      }
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdout) return stop('output');
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    const cleanUp = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      spawnError = error;
      // never started (no binary): there is no process to wait for
      if (child.pid === undefined) {
        cleanUp();
        reject(new Error(`could not run ${binary}: ${error.message}`));
      }
    });
    // 'close': the process has exited and its pipes are drained
    child.on('close', (code, exitSignal) => {
      cleanUp();
      if (spawnError) return reject(new Error(`could not run ${binary}: ${(spawnError as Error).message}`));
      if (stopped === 'aborted') return reject(new MediaAbortedError('aborted'));
      if (stopped === 'timeout') return reject(new FfmpegTimeoutError(`${binary} ran past its time limit (${opts.timeoutMs} ms) and was killed`));
      if (stopped === 'output') return reject(new FfmpegOutputTooLargeError(`${binary} wrote more than ${maxStdout} bytes`));
      if (code !== 0) return reject(new FfmpegExitError(code, exitSignal, stderr));
      resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderr });
    });
  });
}

/**
 * What a failed run means for the post: past its time limit, or ffmpeg refusing the file, is about
 * the file (MediaContentError, the post fails with the reason); a missing binary, a full disk,
 * no memory or a kill by the system are ours (a plain Error: the job is retried).
 */
export function classifyFfmpegFailure(error: unknown, what: string): Error {
  if (error instanceof MediaAbortedError || error instanceof MediaContentError) return error;
  if (error instanceof FfmpegTimeoutError) return new MediaContentError(UPLOAD_TEXTS.tookTooLong(what));
  if (error instanceof FfmpegOutputTooLargeError) return new MediaContentError(UPLOAD_TEXTS.damaged(what));
  if (error instanceof FfmpegExitError) {
    if (error.exitSignal || /ENOSPC|No space left|Cannot allocate memory|ENOMEM/i.test(error.stderr)) return new Error(error.message);
    return new MediaContentError(UPLOAD_TEXTS.damaged(what));
  }
  return error instanceof Error ? error : new Error(String(error));
}
