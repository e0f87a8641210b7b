import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { audioTranscodeJob } from './audio';
import { demuxerForSniffedType, DEMUXERS, ffmpegInputArgs, ffmpegInputOptions, formatNameMatches, type Demuxer } from './ffmpeg-input';
import { ffmpegCommand, ffprobeArgs, type FfmpegJob } from './ffmpeg-run';
import { probeJob } from './probe';
import { posterJob, transcodeJob } from './video';

/** The arguments fluent-ffmpeg gives ffmpeg for a job (ffmpeg-run.unit.test.ts checks they are the ones spawned). */
const argsOf = (job: FfmpegJob) => ffmpegCommand(job)._getArguments();

/**
 * Every input of a command line: what comes after each '-i', with the options given for it (the
 * arguments since the previous input). Each must be opened by ffmpeg-input.ts's rule.
 */
const WRAPPER = 'ffmpeg-run.ts';

function inputsOf(args: readonly string[]): { file: string; options: string[] }[] {
  const inputs: { file: string; options: string[] }[] = [];
  let from = 0;
  args.forEach((arg, i) => {
    if (arg !== '-i') return;
    inputs.push({ file: args[i + 1]!, options: args.slice(from, i) });
    from = i + 2;
  });
  return inputs;
}

function expectGuarded(args: readonly string[], demuxers: Demuxer[]) {
  const inputs = inputsOf(args);
  expect(inputs.map((input) => input.options[input.options.indexOf('-f') + 1])).toEqual(demuxers);
  for (const [i, input] of inputs.entries()) {
    const option = (name: string) => input.options[input.options.indexOf(name) + 1];
    expect(path.isAbsolute(input.file)).toBe(true);
    expect(option('-protocol_whitelist')).toBe('file');
    expect(option('-format_whitelist')).toBe(demuxers[i]);
    if (demuxers[i] === 'mov') expect(option('-enable_drefs')).toBe('0');
  }
}

describe('the demuxer comes from the sniffed type', () => {
  it('maps each container the sniffer accepts to its demuxer', () => {
    expect(Object.fromEntries(['mp4', 'm4v', 'mov', '3gp', 'webm', 'mkv', 'avi', 'mp3', 'wav', 'ogg', 'oga', 'opus'].map((t) => [t, demuxerForSniffedType(t)]))).toEqual({
      mp4: 'mov',
      m4v: 'mov',
      mov: 'mov',
      '3gp': 'mov',
      webm: 'matroska',
      mkv: 'matroska',
      avi: 'avi',
      mp3: 'mp3',
      wav: 'wav',
      ogg: 'ogg',
      oga: 'ogg',
      opus: 'ogg',
    });
  });

  it('has no demuxer for text, lists or anything else', () => {
    for (const type of [null, 'xml', 'm3u8', 'm3u', 'mpd', 'sdp', 'txt', 'jpg', 'zip', 'toString', '__proto__', 'constructor']) {
      expect(demuxerForSniffedType(type), String(type)).toBeNull();
    }
  });
});

describe('ffmpegInputArgs', () => {
  it('forces the demuxer, allows only that demuxer and the file protocol, and keeps mov data references off', () => {
    expect(ffmpegInputArgs('/tmp/media-1/source.mp4', 'mov')).toEqual([
      '-protocol_whitelist', 'file',
      '-format_whitelist', 'mov',
      '-f', 'mov',
      '-enable_drefs', '0', '-use_absolute_path', '0',
      '-i', '/tmp/media-1/source.mp4',
    ]);
    expect(ffmpegInputArgs('/tmp/media-1/source.webm', 'matroska')).toEqual([
      '-protocol_whitelist', 'file', '-format_whitelist', 'matroska', '-f', 'matroska', '-i', '/tmp/media-1/source.webm',
    ]);
    expect(ffmpegInputOptions('/tmp/media-1/source.webm', 'matroska')).toEqual(ffmpegInputArgs('/tmp/media-1/source.webm', 'matroska').slice(0, -2));
  });

  it('takes only a plain absolute path, never a URL or another protocol', () => {
    for (const file of [
      'source.mp4',
      './source.mp4',
      'file:/etc/passwd',
      'file:///etc/passwd',
      'data:video/mp4;base64,AAAA',
      'subfile,,start,0,end,0,,:/etc/passwd',
      'concat:/a.mp4|/b.mp4',
      'http://127.0.0.1/x.m3u8',
      '/tmp/../etc/passwd',
      '/tmp/a\nb.mp4',
    ]) {
      expect(() => ffmpegInputArgs(file, 'mov'), file).toThrow(/absolute path/);
      expect(() => ffmpegInputOptions(file, 'mov'), file).toThrow(/absolute path/);
      expect(() => argsOf({ inputs: [{ file, demuxer: 'mov' }], options: [], output: '/w/o.mp4' }), file).toThrow(/absolute path/);
    }
  });

  it('knows which format_name each forced demuxer reports', () => {
    expect(formatNameMatches('mov', 'mov,mp4,m4a,3gp,3g2,mj2')).toBe(true);
    expect(formatNameMatches('matroska', 'matroska,webm')).toBe(true);
    expect(formatNameMatches('mov', 'hls')).toBe(false);
    expect(formatNameMatches('mp3', 'dash')).toBe(false);
    expect(formatNameMatches('ogg', 'concat')).toBe(false);
    expect(formatNameMatches('wav', undefined)).toBe(false);
    expect(Object.keys(DEMUXERS).sort()).toEqual(['avi', 'matroska', 'mov', 'mp3', 'ogg', 'png_pipe', 'wav']);
  });
});

describe('every ffmpeg and ffprobe command line of the worker', () => {
  it('opens each of its inputs with ffmpeg-input.ts', () => {
    expectGuarded(ffprobeArgs(probeJob('/w/source.avi', 'avi')), ['avi']);
    expectGuarded(ffprobeArgs(probeJob('/w/original.mp4', 'mov')), ['mov']);
    const video = { input: '/w/source.webm', demuxer: 'matroska' as const, output: '/w/original.mp4', size: { width: 640, height: 360 }, scale: true, overlay: { x: '0', y: '0' } };
    expectGuarded(argsOf(transcodeJob({ ...video, watermarkFile: '/w/watermark.png' })), ['matroska', 'png_pipe']);
    expectGuarded(argsOf(transcodeJob({ ...video, watermarkFile: null })), ['matroska']);
    expectGuarded(argsOf(posterJob('/w/original.mp4', 1, '/w/frame.png')), ['mov']);
    expectGuarded(argsOf(audioTranscodeJob('/w/source.ogg', 'ogg', '/w/original.m4a')), ['ogg']);
  });

  it('refuses an option that would open another file', () => {
    const job = (options: string[]): FfmpegJob => ({ inputs: [{ file: '/w/s.mp4', demuxer: 'mov' }], options, output: '/w/o.mp4' });
    expect(() => argsOf(job(['-c:v', 'libx264']))).not.toThrow();
    for (const options of [['-i', '/w/other.mp4'], ['-attach', '/etc/passwd'], ['-filter_complex_script', '/w/graph.txt'], ['-filter_script:v', '/w/f.txt'], ['-/filter_complex', '/w/graph.txt'], ['-vpre', 'x']]) {
      expect(() => argsOf(job(options)), options[0]).toThrow(/would open another file/);
      expect(() => ffprobeArgs({ input: { file: '/w/s.mp4', demuxer: 'mov' }, options }), options[0]).toThrow(/would open another file/);
    }
  });

  it('caps the output length at the longest media accepted', () => {
    const video = argsOf(transcodeJob({ input: '/w/s.mp4', demuxer: 'mov', output: '/w/o.mp4', size: { width: 2, height: 2 }, scale: false, overlay: { x: '0', y: '0' }, watermarkFile: null }));
    expect(video[video.indexOf('-t') + 1]).toBe('1800');
    const audio = argsOf(audioTranscodeJob('/w/s.mp3', 'mp3', '/w/o.m4a'));
    expect(audio[audio.indexOf('-t') + 1]).toBe('3600');
  });

  it('are all run by ffmpeg-run.ts: the only module that uses fluent-ffmpeg or starts a process, and it opens every input with ffmpeg-input.ts', async () => {
    const dir = path.dirname(new URL(import.meta.url).pathname);
    const sources = (await readdir(dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(sources).toContain(WRAPPER);
    for (const file of sources.filter((f) => f !== WRAPPER)) {
      const text = await readFile(path.join(dir, file), 'utf8');
      // an import (static, dynamic or required) of either module, or a call that starts a process
      expect(/['"`](fluent-ffmpeg|(node:)?child_process)['"`]|(?<![.\w])(spawn|execFile|exec|fork)(Sync)?\(/.test(text), file).toBe(false);
    }
    const wrapper = await readFile(path.join(dir, WRAPPER), 'utf8');
    // fluent's command starts without a source: ffmpeg(file) would be an input without the guard
    expect([...wrapper.matchAll(/\bffmpeg\((.*?)\)/g)].map((m) => m[1])).toEqual(['']);
    // every input fluent is given gets ffmpeg-input.ts's options at once
    expect([...wrapper.matchAll(/\.(?:input|addInput|mergeAdd)\(.*$/gm)].map((m) => m[0])).toEqual([
      '.input(input.file).inputOptions(...ffmpegInputOptions(input.file, input.demuxer));',
    ]);
    // fluent's own probing (which takes no input options) is never called
    expect(/\.(ffprobe|screenshots?|takeScreenshots|thumbnails?)\(/.test(wrapper)).toBe(false);
    // the one process spawned directly, ffprobe, gets its arguments from ffprobeArgs (behind
    // setpriv's, child-processes.ts, which starts nothing itself)
    expect([...wrapper.matchAll(/(?<![.\w])(?:spawn|execFile|exec|fork)(?:Sync)?\((.*)$/gm)].map((m) => m[1])).toEqual([
      "...withDeathSignal(binary, ffprobeArgs(job)), { stdio: ['ignore', 'pipe', 'pipe'] });",
    ]);
  });
});
