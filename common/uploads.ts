import { z } from 'zod';
import type { MediaKind } from './enums';
import { safeString, safeText } from './text-schema';
import { UPLOAD_TEXTS, type ToastText } from './texts';
import { MEBIBYTE } from './file-size';
import { refineUnlockFields, UNLOCK_MODES, UnlockFormFields, UnlockPrice, type UnlockMode } from './post-unlock';

/**
 * Post uploads (spec part 2 §5, §9): which files a creator may upload, how large, and the tus
 * metadata that travels with them. One source for the upload form (it refuses at once), the tus
 * endpoint (it refuses the declared length) and the worker (it checks the bytes).
 */

/** The spec's size classes: video 100MB, image 10MB, audio 50MB, documents 20MB. */
export type UploadCategory = 'image' | 'video' | 'audio' | 'document';


export const UPLOAD_LIMIT_MB: Record<UploadCategory, number> = { video: 100, image: 10, audio: 50, document: 20 };

/** The largest of the limits: what the tus endpoint accepts at all. */
export const MAX_UPLOAD_BYTES = Math.max(...Object.values(UPLOAD_LIMIT_MB)) * MEBIBYTE;

export interface UploadRule {
  /** lower-case, without the dot */
  ext: string;
  category: UploadCategory;
  /** posts.media_kind once processed */
  mediaKind: MediaKind;
  /** the type a browser would guess from the extension (the worker trusts only the bytes) */
  contentType: string;
  maxBytes: number;
  maxMb: number;
}

const RULES: Record<string, Pick<UploadRule, 'category' | 'mediaKind' | 'contentType'>> = {
  jpg: { category: 'image', mediaKind: 'image', contentType: 'image/jpeg' },
  jpeg: { category: 'image', mediaKind: 'image', contentType: 'image/jpeg' },
  png: { category: 'image', mediaKind: 'image', contentType: 'image/png' },
  webp: { category: 'image', mediaKind: 'image', contentType: 'image/webp' },
  gif: { category: 'image', mediaKind: 'image', contentType: 'image/gif' },
  svg: { category: 'image', mediaKind: 'image', contentType: 'image/svg+xml' },
  mp4: { category: 'video', mediaKind: 'video', contentType: 'video/mp4' },
  webm: { category: 'video', mediaKind: 'video', contentType: 'video/webm' },
  mov: { category: 'video', mediaKind: 'video', contentType: 'video/quicktime' },
  avi: { category: 'video', mediaKind: 'video', contentType: 'video/x-msvideo' },
  mp3: { category: 'audio', mediaKind: 'audio', contentType: 'audio/mpeg' },
  wav: { category: 'audio', mediaKind: 'audio', contentType: 'audio/wav' },
  ogg: { category: 'audio', mediaKind: 'audio', contentType: 'audio/ogg' },
  pdf: { category: 'document', mediaKind: 'pdf', contentType: 'application/pdf' },
  doc: { category: 'document', mediaKind: 'document', contentType: 'application/msword' },
  docx: {
    category: 'document',
    mediaKind: 'document',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  txt: { category: 'document', mediaKind: 'document', contentType: 'text/plain' },
};

/** The spec's list, in its order: jpg, jpeg, png, webp, gif, svg, mp4, webm, mov, avi, mp3, wav, ogg, pdf, doc, docx, txt. */
export const UPLOAD_EXTENSIONS = Object.keys(RULES);

/** For `<input type="file" accept=...>`. */
export const UPLOAD_ACCEPT = UPLOAD_EXTENSIONS.map((ext) => `.${ext}`).join(',');

/** The extension of a file name, lower-case without the dot ('' when there is none). */
export function fileExtension(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The rule for a file name, or null when its extension is not in the spec's list. */
export function uploadRuleFor(filename: string): UploadRule | null {
  const ext = fileExtension(filename);
  const rule = Object.prototype.hasOwnProperty.call(RULES, ext) ? RULES[ext] : undefined;
  if (!rule) return null;
  const maxMb = UPLOAD_LIMIT_MB[rule.category];
  return { ext, ...rule, maxMb, maxBytes: maxMb * MEBIBYTE };
}

export type UploadFileCheck =
  | { ok: true; rule: UploadRule }
  | { ok: false; reason: 'invalid-type' | 'too-large'; toast: ToastText; maxMb?: number };

/**
 * The spec's two refusals, in its words: 'Invalid file type' / 'Please upload a supported file
 * type.' and 'File too large' / 'Maximum file size is {n}MB'. The form calls it on pick; the
 * server calls it with the declared Upload-Length and again with the bytes received.
 */
export function checkUploadFile(file: { name: string; size: number }): UploadFileCheck {
  const rule = uploadRuleFor(file.name);
  if (!rule) return { ok: false, reason: 'invalid-type', toast: UPLOAD_TEXTS.invalidType };
  if (file.size > rule.maxBytes) return { ok: false, reason: 'too-large', toast: UPLOAD_TEXTS.tooLarge(rule.maxMb), maxMb: rule.maxMb };
  return { ok: true, rule };
}

export const POST_TEXT_MAX_LENGTH = 2000;
export const POST_TITLE_MAX_LENGTH = 100;
export const HASHTAGS_MAX = 20;
/** The hashtag field's hint, one text on the upload form and in the edit dialog (issue 47): both parse with parseHashtags. */
export const HASHTAGS_HINT = `Separate tags with spaces or commas; tags in the text count too (at most ${HASHTAGS_MAX}).`;
export const HASHTAG_MAX_LENGTH = 50;

const HASHTAG_IN_TEXT = /#([\p{L}\p{N}_]+)/gu;

/**
 * The post's hashtags: those typed in the hashtags field (separated by spaces or commas, '#'
 * optional) and those written in the text, lower-case, without duplicates, at most 20 of at
 * most 50 characters. Anything that is not a letter, digit or '_' ends a tag.
 */
export function parseHashtags(field: string | null | undefined, text?: string | null): string[] {
  const typed = (field ?? '')
    .split(/[\s,]+/)
    .map((raw) => /^#*([\p{L}\p{N}_]+)/u.exec(raw)?.[1] ?? '')
    .filter(Boolean);
  const inText = [...(text ?? '').matchAll(HASHTAG_IN_TEXT)].map((m) => m[1]!);
  const tags = [...typed, ...inText].map((t) => t.toLowerCase()).filter((t) => t.length <= HASHTAG_MAX_LENGTH);
  return [...new Set(tags)].slice(0, HASHTAGS_MAX);
}

const flag = z
  .enum(['true', 'false', '1', '0'], { message: 'Must be true or false' })
  .transform((v) => v === 'true' || v === '1');

/** tus sends a key without a value as null; treat it as absent. */
const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === null || v === '' ? undefined : v), schema.optional());

/** A post's title, text and typed hashtags, as the upload form and the tus metadata both hold them to. */
const postTitle = safeString('single-line').max(POST_TITLE_MAX_LENGTH, `Title must be at most ${POST_TITLE_MAX_LENGTH} characters`);
const postText = safeString('multi-line').max(POST_TEXT_MAX_LENGTH, `Post text must be at most ${POST_TEXT_MAX_LENGTH} characters`);
const typedHashtags = safeString('single-line').max(2000);

/** The most files one post holds (issue 29); each is held to its own kind's limits. */
export const MAX_POST_FILES = 20;

/**
 * The tus `Upload-Metadata` of a post upload (every value a string, as tus carries them).
 * Keys: filename (required), filetype, title, postText, hashtags, isPaidContent, isNsfw, status,
 * optimisticId, unlockPrice and unlockMode. Unknown keys are dropped; the server adds the uploader's id itself.
 */
export const UploadMetadata = z.object({
  filename: z
    .string({ message: 'filename is required' })
    .transform((v) => (v.split(/[\\/]/).pop() ?? '').trim())
    .pipe(z.string().check(safeText('single-line')).min(1, 'filename is required').max(255, 'filename must be at most 255 characters')),
  filetype: optional(safeString('single-line').max(255)),
  /** blank means untitled: the post is then named by postName (common/post-name.ts) */
  title: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : v === null ? undefined : v),
    postTitle.optional(),
  ),
  postText: optional(postText),
  hashtags: optional(typedHashtags),
  isPaidContent: optional(flag).transform((v) => v ?? false),
  isNsfw: optional(flag).transform((v) => v ?? false),
  status: optional(z.enum(['draft', 'published', 'scheduled'], { message: 'status must be draft, published or scheduled' })).transform((v) => v ?? 'published'),
  /** a scheduled post's time (ISO); its bounds are checked against the server's clock (common/schedule.ts) */
  publishAt: optional(z.iso.datetime({ offset: true, message: 'publishAt must be a date and time' })),
  optimisticId: optional(z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'optimisticId must be 1-100 letters, digits, - or _')),
  /** a post of several files: every upload of it carries the same group, its place and the number of files */
  uploadGroup: optional(z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'uploadGroup must be 1-100 letters, digits, - or _')),
  fileIndex: optional(z.coerce.number().int().min(0).max(MAX_POST_FILES - 1, `A post holds at most ${MAX_POST_FILES} files`)),
  fileCount: optional(z.coerce.number().int().min(2).max(MAX_POST_FILES, `A post holds at most ${MAX_POST_FILES} files`)),
  /** pay-per-view (issue 27 item 2): the unlock price in rand (parsed to cents, within its bounds) and who pays it, together */
  unlockPrice: optional(UnlockPrice),
  unlockMode: optional(z.enum(UNLOCK_MODES, { message: 'unlockMode must be everyone or non_subscribers' })),
})
  .refine((m) => (m.unlockPrice === undefined) === (m.unlockMode === undefined), { message: 'unlockPrice and unlockMode go together', path: ['unlockMode'] })
  .refine((m) => (m.status === 'scheduled') === (m.publishAt !== undefined), { message: 'publishAt goes with status scheduled, and only with it', path: ['publishAt'] })
  .refine((m) => [m.uploadGroup, m.fileIndex, m.fileCount].every((v) => v === undefined) || (m.uploadGroup !== undefined && m.fileIndex !== undefined && m.fileCount !== undefined && m.fileIndex < m.fileCount), {
    message: 'uploadGroup, fileIndex and fileCount go together, fileIndex below fileCount',
    path: ['uploadGroup'],
  });
export type UploadMetadata = z.output<typeof UploadMetadata>;

/**
 * The upload form's fields (src/features/uploads, on the shared form helper), held to the limits
 * the server applies to the same values in UploadMetadata.
 */
export const PostFieldsInput = z.object({
  title: postTitle,
  postText,
  hashtags: typedHashtags,
  isPaidContent: z.boolean(),
  isNsfw: z.boolean(),
});
export type PostFieldsInput = z.output<typeof PostFieldsInput>;

/** The upload form's fields: a post's fields and its unlock price, held as the Edit post dialog holds it. */
export const UploadFormFields = PostFieldsInput.extend(UnlockFormFields).superRefine(refineUnlockFields);
export type UploadFormFields = z.output<typeof UploadFormFields>;

/** What the upload form knows; `toUploadMetadata` turns it into tus metadata (strings). */
export interface UploadPostFields {
  filename: string;
  filetype?: string;
  title?: string;
  postText?: string;
  /** typed tags ('#art, travel') or a list */
  hashtags?: string | string[];
  isPaidContent: boolean;
  isNsfw: boolean;
  status: 'draft' | 'published' | 'scheduled';
  /** with status 'scheduled' */
  publishAt?: Date;
  optimisticId?: string;
  /** one file of a post of several */
  group?: { id: string; index: number; count: number };
  /** pay-per-view: the price in rand as typed and who pays */
  unlock?: { price: string; mode: UnlockMode } | null;
}

export function toUploadMetadata(fields: UploadPostFields): Record<string, string> {
  const meta: Record<string, string> = {
    filename: fields.filename,
    isPaidContent: String(fields.isPaidContent),
    isNsfw: String(fields.isNsfw),
    status: fields.status,
  };
  if (fields.filetype) meta.filetype = fields.filetype;
  if (fields.title) meta.title = fields.title;
  if (fields.postText) meta.postText = fields.postText;
  const tags = Array.isArray(fields.hashtags) ? fields.hashtags.join(' ') : fields.hashtags;
  if (tags) meta.hashtags = tags;
  if (fields.optimisticId) meta.optimisticId = fields.optimisticId;
  if (fields.publishAt) meta.publishAt = fields.publishAt.toISOString();
  if (fields.unlock) {
    meta.unlockPrice = fields.unlock.price;
    meta.unlockMode = fields.unlock.mode;
  }
  if (fields.group) {
    meta.uploadGroup = fields.group.id;
    meta.fileIndex = String(fields.group.index);
    meta.fileCount = String(fields.group.count);
  }
  return meta;
}

/** The response header of the request that completed an upload: the id of the post it made. */
export const UPLOAD_POST_ID_HEADER = 'Upload-Post-Id';
