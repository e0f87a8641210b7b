import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { audioTranscodeArgs } from './audio';
import { demuxerForSniffedType, DEMUXERS, ffmpegInputArgs, formatNameMatches, type Demuxer } from './ffmpeg-input';
import { probeArgs } from './probe';
import { posterArgs, transcodeArgs } from './video';

/**
 * Every input of a command line: what comes after each '-i', with the options given for it (the
 * arguments since the previous input). Each must be opened by ffmpeg-input.ts's rule.
 */
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
  it('opens each of its inputs with ffmpegInputArgs', () => {
    expectGuarded(probeArgs('/w/source.avi', 'avi'), ['avi']);
    expectGuarded(probeArgs('/w/original.mp4', 'mov'), ['mov']);
    const video = { input: '/w/source.webm', demuxer: 'matroska' as const, output: '/w/original.mp4', size: { width: 640, height: 360 }, scale: true, overlay: { x: '0', y: '0' } };
    expectGuarded(transcodeArgs({ ...video, watermarkFile: '/w/watermark.png' }), ['matroska', 'png_pipe']);
    expectGuarded(transcodeArgs({ ...video, watermarkFile: null }), ['matroska']);
    expectGuarded(posterArgs('/w/original.mp4', 1, '/w/frame.png'), ['mov']);
    expectGuarded(audioTranscodeArgs('/w/source.ogg', 'ogg', '/w/original.m4a'), ['ogg']);
  });

  it('caps the output length at the longest media accepted', () => {
    const video = transcodeArgs({ input: '/w/s.mp4', demuxer: 'mov', output: '/w/o.mp4', size: { width: 2, height: 2 }, scale: false, overlay: { x: '0', y: '0' }, watermarkFile: null });
    expect(video[video.indexOf('-t') + 1]).toBe('1800');
    const audio = audioTranscodeArgs('/w/s.mp3', 'mp3', '/w/o.m4a');
    expect(audio[audio.indexOf('-t') + 1]).toBe('3600');
  });

  it('are all built in worker/media by these functions: nothing else there starts a process or uses fluent-ffmpeg', async () => {
    const dir = path.dirname(new URL(import.meta.url).pathname);
    const sources = (await readdir(dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    for (const file of sources) {
      const text = await readFile(path.join(dir, file), 'utf8');
      expect(text.includes('fluent-ffmpeg'), file).toBe(false);
      if (file !== 'ffmpeg-run.ts') expect(/node:child_process|\bspawn\(|\bexecFile\(/.test(text), file).toBe(false);
      // whoever runs ffmpeg builds its inputs with ffmpegInputArgs
      if (/\brunFfmpeg\(/.test(text) && file !== 'ffmpeg-run.ts') expect(text.includes('ffmpegInputArgs('), file).toBe(true);
    }
  });
});
