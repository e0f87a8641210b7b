import type { UploadRule } from '../../common/uploads';
import { processAudio } from './audio';
import { processDocument } from './document';
import { throwIfAborted } from './errors';
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
}

/**
 * The whole media pipeline for one upload, file in, files out, no database: check the bytes,
 * make the served variants, add the premium preview. Throws MediaContentError for a file that
 * cannot become a post (its message is the reason shown to the creator), MediaAbortedError when
 * `signal` fires, anything else for problems worth a retry.
 */
export async function processUpload(opts: ProcessUploadOptions): Promise<ProcessedMedia> {
  const { rule } = opts;
  await sniffUpload(opts.input, rule);
  throwIfAborted(opts.signal);
  const common = { input: opts.input, workDir: opts.workDir, signal: opts.signal };
  const files =
    rule.category === 'image'
      ? await processImage({ ...common, ext: rule.ext, watermark: opts.watermark })
      : rule.category === 'video'
        ? await processVideo({ ...common, watermark: opts.watermark, onProgress: opts.onProgress })
        : rule.category === 'audio'
          ? await processAudio({ ...common, onProgress: opts.onProgress })
          : await processDocument({ input: opts.input, rule, workDir: opts.workDir });
  if (opts.premium) {
    const picture = files.find((f) => f.variant === 'web') ?? files.find((f) => f.variant === 'poster');
    files.push(picture ? await blurredPreview(picture.path, opts.workDir) : await cardPreview(rule.mediaKind, opts.workDir));
  }
  return { mediaKind: rule.mediaKind, files };
}
