import { fileTypeFromFile } from 'file-type';
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { UPLOAD_TEXTS } from '../../common/texts';
import type { UploadRule } from '../../common/uploads';
import { MediaContentError } from './errors';

/**
 * What the bytes of an upload really are, checked against its extension: the extension only
 * picked the size class and the pipeline; the bytes decide whether the file is processed at all.
 * Pure file-in: no database, no storage.
 */

/** The file-type results each extension may turn out to be (`null`: no binary signature, i.e. text). */
const EXPECTED: Record<string, readonly (string | null)[]> = {
  jpg: ['jpg'],
  jpeg: ['jpg'],
  png: ['png', 'apng'],
  webp: ['webp'],
  gif: ['gif'],
  // SVG is text: file-type sees nothing, or XML when it starts with <?xml
  svg: [null, 'xml'],
  mp4: ['mp4', 'm4v', 'mov', '3gp'],
  mov: ['mov', 'mp4', 'm4v'],
  webm: ['webm', 'mkv'],
  avi: ['avi'],
  mp3: ['mp3'],
  wav: ['wav'],
  ogg: ['ogg', 'oga', 'opus', 'spx', 'ogx'],
  pdf: ['pdf', 'ai'],
  // Word 97-2003 is an OLE compound file; .docx is a zip that file-type recognises as docx
  doc: ['cfb'],
  docx: ['docx', 'zip'],
  txt: [null],
};

export interface SniffResult {
  /** file-type's extension for the bytes, null for text without a signature */
  detected: string | null;
  size: number;
}

/**
 * Checks size (not empty, within the class limit) and that the bytes match the extension.
 * Throws MediaContentError with the reason the creator will read.
 */
export async function sniffUpload(file: string, rule: UploadRule): Promise<SniffResult> {
  const { size } = await stat(file);
  if (size === 0) throw new MediaContentError(UPLOAD_TEXTS.emptyFile);
  if (size > rule.maxBytes) throw new MediaContentError(UPLOAD_TEXTS.tooLarge(rule.maxMb).description);

  // before the type: a list is refused for what it is, whatever it claims to be
  if (rule.category === 'video' || rule.category === 'audio') await assertNotAList(file, rule.category === 'video' ? 'video' : 'audio file');

  const type = await fileTypeFromFile(file);
  const detected = type?.ext ?? null;
  const allowed = EXPECTED[rule.ext] ?? [];
  if (!allowed.includes(detected)) throw new MediaContentError(UPLOAD_TEXTS.typeMismatch(rule.ext, detected));

  if (rule.ext === 'docx' && detected === 'zip' && !(await containsBytes(file, 'word/document.xml'))) {
    throw new MediaContentError(UPLOAD_TEXTS.typeMismatch(rule.ext, 'zip'));
  }
  if (rule.ext === 'txt') await assertUtf8Text(file, size);
  return { detected, size };
}

/**
 * Text that makes ffmpeg open other files: HLS playlists, DASH manifests, ffconcat lists, SDP.
 * Such a file needs no real media signature at all (a leading ID3 tag or a fake MP4 box gets it
 * past file-type), so a media upload that says any of these in its first MiB, or in the first MiB
 * after its leading ID3 tags (which ffmpeg skips before it looks), is refused with a clear reason.
 * A first gate only: ffmpeg is never allowed to pick such a demuxer anyway (ffmpeg-input.ts). The
 * markers are long enough never to turn up by chance in real media.
 */
const LIST_MARKERS = ['#extm3u', '#ext-x-', 'ffconcat version', 'dash:profile', 'urn:mpeg:dash:', 'c=in ip4', 'c=in ip6'];
const LIST_SCAN_BYTES = 1024 * 1024;

export async function assertNotAList(file: string, what: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const starts = [0];
    const afterId3 = await skipId3Tags(handle);
    if (afterId3 > 0) starts.push(afterId3);
    for (const start of starts) {
      const head = Buffer.alloc(LIST_SCAN_BYTES);
      const { bytesRead } = await handle.read(head, 0, head.length, start);
      const text = head.toString('latin1', 0, bytesRead).toLowerCase();
      if (LIST_MARKERS.some((marker) => text.includes(marker))) throw new MediaContentError(UPLOAD_TEXTS.pointsToOtherFiles(what));
    }
  } finally {
    await handle.close();
  }
}

/** Where the bytes after the leading ID3v2 tags start, as ffmpeg counts them (a v2.4 footer adds 10 bytes). */
async function skipId3Tags(handle: FileHandle): Promise<number> {
  let position = 0;
  const header = Buffer.alloc(10);
  for (let tags = 0; tags < 16; tags++) {
    const { bytesRead } = await handle.read(header, 0, 10, position);
    if (bytesRead < 10 || header.toString('latin1', 0, 3) !== 'ID3') break;
    const length = ((header[6]! & 0x7f) << 21) | ((header[7]! & 0x7f) << 14) | ((header[8]! & 0x7f) << 7) | (header[9]! & 0x7f);
    position += 10 + length + (header[5]! & 0x10 ? 10 : 0);
  }
  return position;
}

/** Text files: valid UTF-8 throughout and no NUL bytes (what a binary file renamed .txt has). */
async function assertUtf8Text(file: string, size: number): Promise<void> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const handle = await open(file, 'r');
  try {
    const chunk = Buffer.alloc(Math.min(size, 1024 * 1024));
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      const part = chunk.subarray(0, bytesRead);
      if (part.includes(0)) throw new MediaContentError(UPLOAD_TEXTS.notText);
      try {
        decoder.decode(part, { stream: true });
      } catch {
        throw new MediaContentError(UPLOAD_TEXTS.notText);
      }
      position += bytesRead;
    }
    try {
      decoder.decode();
    } catch {
      throw new MediaContentError(UPLOAD_TEXTS.notText);
    }
  } finally {
    await handle.close();
  }
}

async function containsBytes(file: string, needle: string): Promise<boolean> {
  return (await readFile(file)).includes(Buffer.from(needle, 'latin1'));
}
