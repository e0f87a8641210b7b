import ffmpeg from 'fluent-ffmpeg';
import path from 'node:path';
import { UPLOAD_TEXTS } from '../../common/texts';
import { MediaAbortedError, MediaContentError } from './errors';
import { resolveFfmpegPath } from './ffmpeg-path';
import type { OutputFile, ProgressFn } from './types';
import { classifyFfmpegError, probe } from './video';

/**
 * Audio (mp3, wav, ogg) through ffmpeg, normalised to one format every browser plays: AAC in
 * M4A (+faststart), 192 kb/s, tags and cover art dropped (-vn, -map_metadata -1), with duration.
 */
export const AUDIO_ENCODING = ['-c:a', 'aac', '-b:a', '192k', '-movflags', '+faststart'] as const;

export async function processAudio(opts: { input: string; workDir: string; onProgress?: ProgressFn; signal?: AbortSignal }): Promise<OutputFile[]> {
  const probed = await probe(opts.input, 'audio file');
  if (!probed.audio) throw new MediaContentError(UPLOAD_TEXTS.noAudioStream);
  if (!(probed.durationSeconds > 0)) throw new MediaContentError(UPLOAD_TEXTS.damaged('audio file'));
  const output = path.join(opts.workDir, 'original.m4a');
  await new Promise<void>((resolve, reject) => {
    const command = ffmpeg(opts.input, { timeout: 20 * 60 })
      .setFfmpegPath(resolveFfmpegPath())
      .outputOptions(['-map', '0:a:0', '-vn', ...AUDIO_ENCODING, '-map_metadata', '-1', '-map_chapters', '-1'])
      .format('ipod');
    const onAbort = () => command.kill('SIGKILL');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    command
      .on('progress', (p: { percent?: number }) => {
        if (opts.onProgress && typeof p.percent === 'number' && Number.isFinite(p.percent)) opts.onProgress(Math.min(99, Math.floor(p.percent)));
      })
      .on('end', () => {
        opts.signal?.removeEventListener('abort', onAbort);
        resolve();
      })
      .on('error', (error: Error, _o: string | null, stderr: string | null) => {
        opts.signal?.removeEventListener('abort', onAbort);
        reject(opts.signal?.aborted ? new MediaAbortedError('aborted') : classifyFfmpegError(error, stderr, 'audio file'));
      })
      .save(output);
  });
  const result = await probe(output, 'audio file');
  return [
    {
      variant: 'original',
      path: output,
      ext: 'm4a',
      contentType: 'audio/mp4',
      durationSeconds: Math.round(result.durationSeconds * 1000) / 1000,
    },
  ];
}
