import { fileTypeFromFile } from 'file-type';
import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LEAK_MAX_SECONDS } from '../../common/forensics';
import { MEDIA_LIMITS } from '../../common/limits';
import { markBit } from '../../domain/forensics/code';
import { issuedViewers } from '../../domain/forensics/issues.queries';
import type { TraceVerdict } from '../../domain/forensics/verdict';
import { findLadder } from '../../domain/streaming/ladders.queries';
import { checkVideoBounds, remainingMs, videoTimeLimitMs, videoWork } from '../media/bounds';
import { MediaContentError } from '../media/errors';
import { demuxerForSniffedType } from '../media/ffmpeg-input';
import { probe } from '../media/probe';
import { assertNotAList } from '../media/sniff';
import { decodeBuyer } from './decode';
import { grayFrames } from './gray-frames';
import { readMark, segmentTimes } from './read-mark';
import type { TraceInput } from './tracers';

/** The leak's frames as the reader compares them, and the references' (finer: a window of them is taken). */
const LEAK_GRID = { width: 64, height: 36 };
const REFERENCE_WIDTH = 160;
/** Below this the leak's pictures are not this video's (or not enough of it). */
const MIN_PICTURE_MATCH = 0.5;

/**
 * The video tracer: the leak (hostile: its type sniffed from its bytes, its demuxer forced, its
 * size, rate and length bounded, its decoding timed) against variants A and B of the lowest rung
 * of the post's ladder, read by readMark, decoded against everyone handed a marked playlist.
 */
export async function traceVideo(input: TraceInput): Promise<TraceVerdict> {
  const { deps, postId, position, leakPath, workDir, signal } = input;
  const ladder = await findLadder(deps.db, postId, position);
  const rung = ladder?.renditions.slice().sort((x, y) => x.height - y.height)[0];
  if (!rung?.variantB) return { kind: 'unknown', reason: 'This video was streamed before copies were marked: its copies carry no mark.' };

  await assertNotAList(leakPath, 'video');
  const demuxer = demuxerForSniffedType((await fileTypeFromFile(leakPath))?.ext ?? null);
  if (demuxer !== 'mov' && demuxer !== 'matroska' && demuxer !== 'avi') throw new MediaContentError('The file is not a video that can be read (MP4, MOV, WebM, MKV or AVI).');
  const probed = await probe(leakPath, demuxer, 'video', signal);
  const video = checkVideoBounds(probed, MEDIA_LIMITS);
  const deadline = Date.now() + 3 * videoTimeLimitMs(videoWork(probed, video, LEAK_GRID), deps.config.MEDIA_TIME_LIMIT_SCALE);

  const leak = await grayFrames({ file: leakPath, demuxer }, path.join(workDir, 'leak.gray'), LEAK_GRID, { maxSeconds: LEAK_MAX_SECONDS, timeoutMs: remainingMs(deadline), signal });
  const refSize = { width: REFERENCE_WIDTH, height: Math.max(2, Math.round((REFERENCE_WIDTH * rung.height) / rung.width / 2) * 2) };
  const reference = async (name: 'a' | 'b') => {
    // our own segments, joined after their init segment: one fragmented MP4
    const file = path.join(workDir, `reference-${name}.mp4`);
    const parts = name === 'a' ? [rung.init, ...rung.segments] : [rung.variantB!.init, ...rung.variantB!.segments];
    await writeFile(file, '');
    for (const part of parts) {
      const chunks: Buffer[] = [];
      for await (const chunk of (await deps.storage.get(part.key)).stream) chunks.push(Buffer.from(chunk as Uint8Array));
      await appendFile(file, Buffer.concat(chunks));
    }
    return grayFrames({ file, demuxer: 'mov' }, path.join(workDir, `reference-${name}.gray`), refSize, { maxSeconds: MEDIA_LIMITS.videoMaxMinutes * 60, timeoutMs: remainingMs(deadline), signal });
  };
  const a = await reference('a');
  const b = await reference('b');
  if (leak.frames.length < 2 || a.frames.length < 2) throw new MediaContentError('The file holds too little video to compare.');

  const reading = readMark(leak, a, b, segmentTimes(rung.segments.map((s) => s.duration)));
  deps.log.info({ postId, offsetFrames: reading.offsetFrames, timeMatch: reading.timeMatch, window: reading.window, bits: reading.bits.length }, 'leak trace: mark read');
  if (reading.timeMatch < MIN_PICTURE_MATCH) return { kind: 'unknown', reason: 'The file does not show this video.' };
  const candidates = await issuedViewers(deps.db, postId);
  return decodeBuyer(reading.bits, candidates, (viewerId, segment) => markBit(deps.config.forensicKey, { postId, position, viewerId, segment }));
}
