import { chmod, mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ffmpeg from 'fluent-ffmpeg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_TEXTS } from '../../common/texts';
import { makeVideo } from '../../tests/helpers/media-fixtures';
import { MediaAbortedError, MediaContentError } from './errors';
import { ffmpegInputOptions } from './ffmpeg-input';
import { resolveFfprobePath } from './ffmpeg-path';
import {
  classifyFfmpegFailure,
  ffmpegCommand,
  FfmpegExitError,
  FfmpegOutputTooLargeError,
  FfmpegTimeoutError,
  runFfmpeg,
  runFfprobe,
  type FfmpegJob,
  type Spawned,
} from './ffmpeg-run';

let dir: string;
/** 20 s of 64x64 test pattern */
let long: string;
/** 3 s with sound */
let short: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ffmpeg-run-'));
  long = await makeVideo(dir, { name: 'long.mp4', seconds: 20, width: 64, height: 64, audio: false });
  short = await makeVideo(dir, { name: 'short.mp4', seconds: 3, width: 160, height: 120 });
}, 60_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** ffmpeg held to real time (the realtime filter): 20 s of work whatever the machine. */
const slowJob = (): FfmpegJob => ({ inputs: [{ file: long, demuxer: 'mov' }], options: ['-filter:v', 'realtime', '-f', 'null'], output: '/dev/null' });

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe('runFfmpeg (fluent-ffmpeg)', () => {
  it('kills ffmpeg (SIGKILL) when its time limit passes, and settles only once it is gone', async () => {
    let pid = 0;
    const progress: number[] = [];
    const started = Date.now();
    const error = await runFfmpeg(slowJob(), { timeoutMs: 1500, onProgressSeconds: (s) => progress.push(s) }, (s) => (pid = s.pid)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FfmpegTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    // it was really running (and reporting) until then, and is not any more: no orphan
    expect(pid).toBeGreaterThan(0);
    expect(progress.length).toBeGreaterThan(0);
    expect(isRunning(pid)).toBe(false);
    expect(classifyFfmpegFailure(error, 'video')).toEqual(new MediaContentError(UPLOAD_TEXTS.tookTooLong('video')));
    expect(UPLOAD_TEXTS.tookTooLong('video')).toBe('The video took too long to process.');
  });

  it('kills ffmpeg when the job is stopped', async () => {
    const controller = new AbortController();
    let onSpawn!: (s: Spawned) => void;
    const spawned = new Promise<Spawned>((resolve) => (onSpawn = resolve));
    const run = runFfmpeg(slowJob(), { timeoutMs: 60_000, signal: controller.signal }, onSpawn);
    const { pid } = await spawned;
    await new Promise((r) => setTimeout(r, 300));
    expect(isRunning(pid)).toBe(true);
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(MediaAbortedError);
    expect(isRunning(pid)).toBe(false);
  });

  it('kills the ffmpeg of a job stopped before fluent had started it, and waits for it', async () => {
    const controller = new AbortController();
    let pid = 0;
    const run = runFfmpeg(slowJob(), { timeoutMs: 60_000, signal: controller.signal }, (s) => (pid = s.pid));
    // fluent first checks the binary's formats and encoders: nothing is spawned yet
    expect(pid).toBe(0);
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(MediaAbortedError);
    expect(pid).toBeGreaterThan(0);
    expect(isRunning(pid)).toBe(false);
  });

  it("spawns exactly the command's arguments: each input opened by ffmpeg-input.ts, fluent adding only -y", async () => {
    const job: FfmpegJob = { inputs: [{ file: short, demuxer: 'mov', seekSeconds: 1 }], options: ['-frames:v', '1', '-f', 'image2'], output: path.join(dir, 'frame.png') };
    let args: string[] = [];
    await runFfmpeg(job, { timeoutMs: 10_000 }, (s) => (args = s.args));
    expect(args).toEqual(ffmpegCommand(job)._getArguments());
    expect(args).toEqual([
      ...ffmpegInputOptions(short, 'mov'), '-ss', '1.000', '-i', short,
      '-y', '-hide_banner', '-nostdin', '-v', 'error', '-stats',
      '-frames:v', '1', '-f', 'image2', job.output,
    ]);
    expect(await exists(job.output)).toBe(true);
  });

  it("reports the media time written from fluent's progress (the timemark)", async () => {
    const progress: number[] = [];
    const job: FfmpegJob = { inputs: [{ file: short, demuxer: 'mov' }], options: ['-c:v', 'libx264', '-preset', 'ultrafast', '-an', '-f', 'mp4'], output: path.join(dir, 'out.mp4') };
    await runFfmpeg(job, { timeoutMs: 10_000, onProgressSeconds: (s) => progress.push(s) });
    expect(progress.length).toBeGreaterThan(0);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(progress.at(-1)).toBeGreaterThan(2.9);
  });

  it('never lets fluent probe the input by itself (it would, unguarded, for a progress listener)', async () => {
    const spy = path.join(dir, 'ffprobe-spy');
    const log = path.join(dir, 'ffprobe-spy.log');
    await writeFile(spy, `#!/bin/sh\necho "$@" >> ${log}\n`);
    await chmod(spy, 0o755);
    ffmpeg.setFfprobePath(spy);
    try {
      // plain fluent, same guarded input: it starts ffprobe on the bare path
      const plain = ffmpeg().input(short).inputOptions(...ffmpegInputOptions(short, 'mov')).outputOptions('-f', 'null').output('/dev/null');
      plain.on('progress', () => {});
      await new Promise((resolve, reject) => plain.on('end', resolve).on('error', reject).run());
      await expect.poll(() => exists(log), { timeout: 2000 }).toBe(true);
      expect((await readFile(log, 'utf8')).trim()).toBe(`-show_streams -show_format ${short}`);
      await unlink(log);

      const progress: number[] = [];
      await runFfmpeg({ inputs: [{ file: short, demuxer: 'mov' }], options: ['-f', 'null'], output: '/dev/null' }, { timeoutMs: 10_000, onProgressSeconds: (s) => progress.push(s) });
      expect(progress.length).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 500));
      expect(await exists(log)).toBe(false);
    } finally {
      ffmpeg.setFfprobePath(resolveFfprobePath());
    }
  });

  it('tells a file ffmpeg refuses (the upload is at fault) from a missing binary (retried)', async () => {
    const missingFile: FfmpegJob = { inputs: [{ file: '/nonexistent/source.mp4', demuxer: 'mov' }], options: ['-f', 'null'], output: '/dev/null' };
    const refused = await runFfmpeg(missingFile, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FfmpegExitError);
    expect((refused as FfmpegExitError).stderr).toMatch(/No such file/);
    expect(classifyFfmpegFailure(refused, 'video')).toEqual(new MediaContentError(UPLOAD_TEXTS.damaged('video')));

    const before = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = '/nonexistent/ffmpeg';
    try {
      const missing = await runFfmpeg({ ...missingFile, inputs: [{ file: short, demuxer: 'mov' }] }, { timeoutMs: 10_000 }).catch((e: unknown) => e);
      const classified = classifyFfmpegFailure(missing, 'video');
      expect(classified).not.toBeInstanceOf(MediaContentError);
      expect(classified.message).toMatch(/could not run/);
    } finally {
      if (before === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = before;
    }
  });

  it('treats a kill by the system (out of memory) as ours, to be retried', () => {
    const killed = new FfmpegExitError(null, 'SIGKILL', '');
    expect(classifyFfmpegFailure(killed, 'video')).not.toBeInstanceOf(MediaContentError);
    expect(classifyFfmpegFailure(new FfmpegExitError(1, null, 'No space left on device'), 'video')).not.toBeInstanceOf(MediaContentError);
  });
});

describe('runFfprobe', () => {
  /** decodes and prints every frame: long enough to be stopped */
  const slowProbe = () => ({ input: { file: long, demuxer: 'mov' as const }, options: ['-v', 'error', '-show_frames', '-of', 'json'] });

  it('returns what ffprobe wrote', async () => {
    const out = JSON.parse(await runFfprobe({ input: { file: short, demuxer: 'mov' }, options: ['-v', 'error', '-show_format', '-of', 'json'] }, { timeoutMs: 10_000 })) as { format: { format_name: string } };
    expect(out.format.format_name).toBe('mov,mp4,m4a,3gp,3g2,mj2');
  });

  it('kills ffprobe at its time limit and when the job is stopped, settling once it is gone', async () => {
    let pid = 0;
    const timedOut = await runFfprobe(slowProbe(), { timeoutMs: 5 }, (s) => (pid = s.pid)).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(FfmpegTimeoutError);
    expect(pid).toBeGreaterThan(0);
    expect(isRunning(pid)).toBe(false);

    const controller = new AbortController();
    pid = 0;
    const run = runFfprobe(slowProbe(), { timeoutMs: 60_000, signal: controller.signal }, (s) => (pid = s.pid));
    expect(isRunning(pid)).toBe(true);
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(MediaAbortedError);
    expect(isRunning(pid)).toBe(false);
  });

  it('refuses more output than it allows (a damaged file)', async () => {
    const error = await runFfprobe(slowProbe(), { timeoutMs: 10_000, maxStdoutBytes: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FfmpegOutputTooLargeError);
    expect(classifyFfmpegFailure(error, 'video')).toEqual(new MediaContentError(UPLOAD_TEXTS.damaged('video')));
  });
});
