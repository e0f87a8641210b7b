import { fileTypeFromFile } from 'file-type';
import { open, readFile, stat } from 'node:fs/promises';
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
