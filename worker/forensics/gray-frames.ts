import { readFile } from 'node:fs/promises';
import type { Demuxer } from '../media/ffmpeg-input';
import { classifyFfmpegFailure, runFfmpeg } from '../media/ffmpeg-run';

/**
 * A video as the trace reads it: small grey frames at a fixed rate (the mark is a smooth change of
 * brightness, so a few dozen pixels a side and ten frames a second hold all of it). Decoded by
 * ffmpeg with the input's demuxer forced (ffmpeg-input.ts), at most `maxSeconds`, killed past
 * `timeoutMs`; the raw output is `width * height` bytes a frame.
 */
export interface GrayClip {
  width: number;
  height: number;
  fps: number;
  frames: Uint8Array[];
}

/** Frames a second the trace samples (leak and references alike). */
export const TRACE_FPS = 10;

export async function grayFrames(
  input: { file: string; demuxer: Demuxer },
  out: string,
  size: { width: number; height: number },
  opts: { maxSeconds: number; timeoutMs: number; signal?: AbortSignal },
): Promise<GrayClip> {
  try {
    await runFfmpeg(
      {
        inputs: [input],
        options: [
          '-t', String(opts.maxSeconds),
          '-an', '-sn', '-dn',
          // area: each small pixel is the mean of the picture under it (what the mark changes)
          '-vf', `fps=${TRACE_FPS},scale=${size.width}:${size.height}:flags=area,format=gray`,
          '-f', 'rawvideo', '-pix_fmt', 'gray', '-y',
        ],
        output: out,
      },
      { timeoutMs: opts.timeoutMs, signal: opts.signal },
    );
  } catch (error) {
    throw classifyFfmpegFailure(error, 'video');
  }
  const bytes = await readFile(out);
  const frameBytes = size.width * size.height;
  const frames: Uint8Array[] = [];
  for (let at = 0; at + frameBytes <= bytes.length; at += frameBytes) frames.push(bytes.subarray(at, at + frameBytes));
  return { width: size.width, height: size.height, fps: TRACE_FPS, frames };
}
