import type { MediaBounds } from '../../common/limits';
import type { UploadRule } from '../../common/uploads';
import { processAudio } from './audio';
import { processDocument } from './document';
import { UPLOAD_TEXTS } from '../../common/texts';
import { MediaContentError, throwIfAborted } from './errors';
import { demuxerForSniffedType, type Demuxer } from './ffmpeg-input';
import { processImage } from './image';
import { blurredPreview, cardPreview } from './preview';
import { sniffUpload } from './sniff';
import type { ProcessedMedia, ProgressFn } from './types';
import { processVideo } from './video';
import type { WatermarkSpec } from './watermark';

export interface ProcessUploadOptions {
  /** the uploaded file, on local disk */
  input: string;
  /** from the upload's extension: size class and pipeline */
  rule: UploadRule;
  /** where outputs are written; the caller removes it */
  workDir: string;
  /** null: no watermark (the creator turned it off) */
  watermark: WatermarkSpec | null;
  /** premium posts also get a blurred 'preview' */
  premium: boolean;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /** MEDIA_TIME_LIMIT_SCALE: stretches the time ffmpeg may take (worker/media/bounds.ts) */
  timeLimitScale?: number;
  /** the bounds of video and audio: MEDIA_LIMITS (posts, the default) or CHAT_MEDIA_LIMITS */
  limits?: MediaBounds;
}

/**
 * The whole media pipeline for one upload, file in, files out, no database: check the bytes,
 * make the served variants, add the premium preview. Throws MediaContentError for a file that
 * cannot become a post (its message is the reason shown to the creator), MediaAbortedError when
 * `signal` fires, anything else for problems worth a retry.
 */
export async function processUpload(opts: ProcessUploadOptions): Promise<ProcessedMedia> {
  const { rule } = opts;
  const { detected } = await sniffUpload(opts.input, rule);
  throwIfAborted(opts.signal);
  const common = { input: opts.input, workDir: opts.workDir, signal: opts.signal };
  const ffmpegCommon = () => ({ ...common, demuxer: demuxerOf(detected, rule), onProgress: opts.onProgress, timeLimitScale: opts.timeLimitScale, limits: opts.limits });
  const files =
    rule.category === 'image'
      ? await processImage({ ...common, ext: rule.ext, watermark: opts.watermark })
      : rule.category === 'video'
        ? await processVideo({ ...ffmpegCommon(), watermark: opts.watermark })
        : rule.category === 'audio'
          ? await processAudio(ffmpegCommon())
          : await processDocument({ input: opts.input, rule, workDir: opts.workDir });
  if (opts.premium) {
    const picture = files.find((f) => f.variant === 'web') ?? files.find((f) => f.variant === 'poster');
    files.push(picture ? await blurredPreview(picture.path, opts.workDir) : await cardPreview(rule.mediaKind, opts.workDir));
  }
  return { mediaKind: rule.mediaKind, files };
}

/** The demuxer ffmpeg must use: the one for what the bytes are, never its own guess. */
function demuxerOf(detected: string | null, rule: UploadRule): Demuxer {
  const demuxer = demuxerForSniffedType(detected);
  if (!demuxer) throw new MediaContentError(UPLOAD_TEXTS.typeMismatch(rule.ext, detected));
  return demuxer;
}
