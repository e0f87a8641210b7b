import { spawn, type ChildProcess } from 'node:child_process';
import ffmpeg, { type FfmpegCommand } from 'fluent-ffmpeg';
import { UPLOAD_TEXTS } from '../../common/texts';
import { binaryArgs, trackChild, withDeathSignal } from './child-processes';
import { MediaAbortedError, MediaContentError } from './errors';
import { ffmpegInputArgs, ffmpegInputOptions, type Demuxer } from './ffmpeg-input';
import { resolveFfmpegPath, resolveFfprobePath } from './ffmpeg-path';

/**
 * The one place the worker runs ffmpeg (through fluent-ffmpeg) and ffprobe. A run is bounded:
 * killed with SIGKILL when its time limit passes or the job is stopped, and the promise settles
 * only once the process is gone, so nothing outlives its job; nor the worker: a child is killed
 * when the worker exits or is killed (child-processes.ts). A run gets its
 * inputs only as { file, demuxer }, opened as ffmpeg-input.ts says; an option that would open
 * another file is refused.
 *
 * ffprobe is spawned here directly, not through fluent's `ffprobe()`: that one puts its options
 * before the file (nothing else is added) but never hands out its process, so it could be
 * neither killed at the time limit nor on a stop, and it keeps all the output in memory.
 */

/** A file a run reads. */
export interface MediaInput {
  /** absolute path */
  file: string;
  /** from the sniffed type (ffmpeg-input.ts), never ffmpeg's guess */
  demuxer: Demuxer;
}

export interface FfmpegInput extends MediaInput {
  /** `-ss` before the input: the demuxer seeks there instead of decoding up to it */
  seekSeconds?: number;
}

export interface FfmpegJob {
  inputs: FfmpegInput[];
  /** global and output options (the logging ones are the wrapper's) */
  options: readonly string[];
  output: string;
}

export interface FfprobeJob {
  input: MediaInput;
  options: readonly string[];
}

export interface RunOptions {
  /** the process is killed when it has run this long */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface FfmpegRunOptions extends RunOptions {
  /** the media time written so far, in seconds (fluent's 'progress' timemark) */
  onProgressSeconds?: (seconds: number) => void;
}

export interface FfprobeRunOptions extends RunOptions {
  /** stdout beyond this is refused (ffprobe's JSON of a sane file is a few KB) */
  maxStdoutBytes?: number;
}

/** What a test may check: the pid and the arguments the binary was really started with. */
export interface Spawned {
  pid: number;
  args: string[];
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

/**
 * -nostdin: fluent gives ffmpeg a stdin pipe, which ffmpeg would read keys from. -v error keeps
 * stderr to errors, and -stats still prints the progress lines fluent turns into 'progress'.
 */
const FFMPEG_LOGGING = ['-hide_banner', '-nostdin', '-v', 'error', '-stats'] as const;

/** Options that read a file they name (ffmpeg 7's `-/opt` reads the option's value from one). */
function opensAnotherFile(option: string): boolean {
  return option === '-i' || option === '-attach' || /^-[afsv]pre$/.test(option) || /_script(?::|$)/.test(option) || option.startsWith('-/');
}

function refuseOtherFiles(options: readonly string[]): void {
  const opening = options.find(opensAnotherFile);
  if (opening !== undefined) throw new Error(`ffmpeg option ${opening} would open another file: a run's inputs go through ffmpeg-input.ts`);
}

/** Stands in for fluent's own ffprobe of a command's first input (see ffmpegCommand). */
function refuseFluentProbe(...args: unknown[]): void {
  const callback = args[args.length - 1];
  if (typeof callback === 'function') (callback as (error: Error) => void)(new Error('the worker probes with ffprobeArgs only'));
}

/** The fluent-ffmpeg command of a job, not started (exported for the tests, which read its `_getArguments()`). */
export function ffmpegCommand(job: FfmpegJob): FfmpegCommand {
  refuseOtherFiles(job.options);
  const command = ffmpeg().setFfmpegPath(resolveFfmpegPath());
  for (const input of job.inputs) {
    // spread: given one array, fluent splits any option holding a single space in two
    command.input(input.file).inputOptions(...ffmpegInputOptions(input.file, input.demuxer));
    if (input.seekSeconds !== undefined) command.seekInput(input.seekSeconds.toFixed(3));
  }
  command.outputOptions(...FFMPEG_LOGGING, ...job.options).output(job.output);
  spawnWithDeathSignal(command);
  // as soon as anyone listens to 'progress', fluent runs ffprobe on the first input by itself
  // (lib/processor.js, runFfprobe) without its input options: the probe a hostile upload wants
  command.ffprobe = refuseFluentProbe as FfmpegCommand['ffprobe'];
  return command;
}

/**
 * fluent spawns `<ffmpeg path> <args>` (lib/processor.js _spawnFfmpeg, also for its capability
 * checks): this command spawns `setpriv --pdeathsig KILL -- <ffmpeg path> <args>` instead, so the
 * kernel kills ffmpeg if the worker dies without a word (child-processes.ts). The arguments fluent
 * builds are untouched (`_getArguments()`).
 */
function spawnWithDeathSignal(command: FfmpegCommand): void {
  const ffmpegPath = resolveFfmpegPath();
  const [wrapper, wrapperArgs] = withDeathSignal(ffmpegPath, []);
  if (wrapper === ffmpegPath) return;
  const fluent = command as unknown as {
    _spawnFfmpeg(args: string[], ...rest: unknown[]): void;
    _getFfmpegPath(callback: (error: Error | null, path?: string) => void): void;
  };
  const spawnFfmpeg = fluent._spawnFfmpeg;
  fluent._getFfmpegPath = (callback) => callback(null, wrapper);
  fluent._spawnFfmpeg = function (this: unknown, args: string[], ...rest: unknown[]) {
    return spawnFfmpeg.call(this, [...wrapperArgs, ...args], ...rest);
  };
}

/** The ffprobe command line of a job. */
export function ffprobeArgs(job: FfprobeJob): string[] {
  refuseOtherFiles(job.options);
  return [...job.options, ...ffmpegInputArgs(job.input.file, job.input.demuxer)];
}

/** fluent sets `ffmpegProc` just before it emits 'start' (lib/processor.js) and drops it once the run ends. */
function processOf(command: FfmpegCommand): ChildProcess | undefined {
  return (command as unknown as { ffmpegProc?: ChildProcess }).ffmpegProc;
}

/** Resolves once `child` has exited (at once when it never started: no binary). */
function exited(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** '00:01:02.50' → 62.5; 'N/A', negative or nonsense → null. */
export function timemarkSeconds(mark: unknown): number | null {
  const match = typeof mark === 'string' ? /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(mark) : null;
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) : null;
}

/** fluent's stderr (its last lines) less the -stats lines, so the error is what ends it. */
function withoutProgress(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !/^\s*(frame|size|Lsize)=/.test(line))
    .join('\n');
}

/** Runs the job through fluent-ffmpeg; resolves when ffmpeg has exited 0. */
export function runFfmpeg(job: FfmpegJob, opts: FfmpegRunOptions, onSpawn?: (spawned: Spawned) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new MediaAbortedError('aborted'));
    const command = ffmpegCommand(job);
    let child: ChildProcess | undefined;
    let stopped: 'timeout' | 'aborted' | null = null;
    let settled = false;

    const stop = (why: NonNullable<typeof stopped>) => {
      if (stopped) return;
      stopped = why;
      // before 'start' fluent is still checking the binary's formats and encoders: killed on 'start'
      if (child) command.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timeout'), Math.max(1, opts.timeoutMs));
    const onAbort = () => stop('aborted');
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    // fluent reports 'end' and 'error' once the process has exited and its pipes closed; waiting
    // for the exit here as well covers an 'error' of the ChildProcess itself (a failed kill)
    const settle = (error: Error | null, stderr: string) => {
      if (settled) return;
      settled = true;
      void exited(child).then(() => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        if (stopped === 'aborted') return reject(new MediaAbortedError('aborted'));
        if (stopped === 'timeout') return reject(new FfmpegTimeoutError(`ffmpeg ran past its time limit (${opts.timeoutMs} ms) and was killed`));
        if (!error) return resolve();
        if (child?.pid === undefined) return reject(new Error(`could not run ffmpeg: ${error.message}`));
        reject(new FfmpegExitError(child.exitCode, child.signalCode, withoutProgress(stderr).slice(-STDERR_TAIL_BYTES)));
      });
    };

    command.on('start', () => {
      child = processOf(command);
      if (!child) return;
      trackChild(child);
      if (child.pid === undefined) {
        // the spawn failed (no binary, no process slot): fluent's own 'error' listener would
        // throw an uncaught TypeError, reading output it never had (fluent-ffmpeg issue #1316)
        child.removeAllListeners('error');
        child.once('error', (error) => settle(error, ''));
        return;
      }
      onSpawn?.({ pid: child.pid, args: binaryArgs(child.spawnargs) });
      if (stopped) command.kill('SIGKILL');
    });
    const onProgressSeconds = opts.onProgressSeconds;
    if (onProgressSeconds) {
      command.on('progress', (progress: { timemark?: unknown }) => {
        const seconds = timemarkSeconds(progress.timemark);
        if (seconds !== null) onProgressSeconds(seconds);
      });
    }
    command.on('end', () => settle(null, ''));
    command.on('error', (error: Error, _stdout: string | null, stderr: string | null) => settle(error, stderr ?? ''));
    command.run();
  });
}

/** Runs ffprobe on the job; resolves with its stdout when it exits 0. */
export function runFfprobe(job: FfprobeJob, opts: FfprobeRunOptions, onSpawn?: (spawned: Spawned) => void): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new MediaAbortedError('aborted'));
    const binary = resolveFfprobePath();
    const child = spawn(...withDeathSignal(binary, ffprobeArgs(job)), { stdio: ['ignore', 'pipe', 'pipe'] });
    trackChild(child);
    const maxStdout = opts.maxStdoutBytes ?? DEFAULT_MAX_STDOUT;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
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
      resolve(Buffer.concat(stdout).toString('utf8'));
    });
    if (child.pid !== undefined) onSpawn?.({ pid: child.pid, args: binaryArgs(child.spawnargs) });
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
