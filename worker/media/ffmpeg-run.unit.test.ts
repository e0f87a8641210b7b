import { describe, expect, it } from 'vitest';
import { UPLOAD_TEXTS } from '../../common/texts';
import { MediaAbortedError, MediaContentError } from './errors';
import { resolveFfmpegPath } from './ffmpeg-path';
import { classifyFfmpegFailure, FfmpegExitError, FfmpegTimeoutError, runFfmpeg } from './ffmpeg-run';

/** An ffmpeg that would run for ever: a test pattern at its real rate into nothing. */
const ENDLESS = ['-hide_banner', '-nostdin', '-v', 'error', '-nostats', '-progress', 'pipe:1', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=64x64:rate=25', '-f', 'null', '-'];

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('runFfmpeg', () => {
  it('kills ffmpeg (SIGKILL) when its time limit passes, and settles only once it is gone', async () => {
    let pid = 0;
    const progress: number[] = [];
    const started = Date.now();
    const error = await runFfmpeg(resolveFfmpegPath(), ENDLESS, { timeoutMs: 1500, onProgressSeconds: (s) => progress.push(s) }, (p) => (pid = p)).catch((e: unknown) => e);
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
    let pid = 0;
    const controller = new AbortController();
    const run = runFfmpeg(resolveFfmpegPath(), ENDLESS, { timeoutMs: 60_000, signal: controller.signal }, (p) => (pid = p));
    await new Promise((r) => setTimeout(r, 300));
    expect(isRunning(pid)).toBe(true);
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(MediaAbortedError);
    expect(isRunning(pid)).toBe(false);
  });

  it('returns the output of a run that succeeds', async () => {
    const { stdout } = await runFfmpeg(resolveFfmpegPath(), ['-hide_banner', '-version'], { timeoutMs: 10_000 });
    expect(stdout).toMatch(/^ffmpeg version/);
  });

  it('tells a file ffmpeg refuses (the upload is at fault) from a missing binary (retried)', async () => {
    const refused = await runFfmpeg(resolveFfmpegPath(), ['-v', 'error', '-f', 'mov', '-i', '/nonexistent/source.mp4', '-f', 'null', '-'], { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FfmpegExitError);
    expect((refused as FfmpegExitError).stderr).toMatch(/No such file/);
    expect(classifyFfmpegFailure(refused, 'video')).toEqual(new MediaContentError(UPLOAD_TEXTS.damaged('video')));

    const missing = await runFfmpeg('/nonexistent/ffmpeg', ['-version'], { timeoutMs: 10_000 }).catch((e: unknown) => e);
    const classified = classifyFfmpegFailure(missing, 'video');
    expect(classified).not.toBeInstanceOf(MediaContentError);
    expect(classified.message).toMatch(/could not run/);
  });

  it('treats a kill by the system (out of memory) as ours, to be retried', () => {
    const killed = new FfmpegExitError(null, 'SIGKILL', '');
    expect(classifyFfmpegFailure(killed, 'video')).not.toBeInstanceOf(MediaContentError);
    expect(classifyFfmpegFailure(new FfmpegExitError(1, null, 'No space left on device'), 'video')).not.toBeInstanceOf(MediaContentError);
  });
});
