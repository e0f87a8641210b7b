import { copyFile, open, stat } from 'node:fs/promises';
import path from 'node:path';
import { UPLOAD_TEXTS } from '../../common/texts';
import type { UploadRule } from '../../common/uploads';
import { MediaContentError } from './errors';
import type { OutputFile } from './types';

/**
 * PDFs and documents are kept byte for byte once they pass their checks (sniff.ts has matched
 * the signature, and text is valid UTF-8); a PDF must also have the structure a reader needs
 * to open it: the header, and at its end a cross-reference position that points at a
 * cross-reference table or stream, then %%EOF. A truncated PDF fails here.
 */
export async function processDocument(opts: { input: string; rule: UploadRule; workDir: string }): Promise<OutputFile[]> {
  if (opts.rule.ext === 'pdf') await checkPdf(opts.input);
  const output = path.join(opts.workDir, `original.${opts.rule.ext}`);
  await copyFile(opts.input, output);
  const contentType = opts.rule.ext === 'txt' ? 'text/plain; charset=utf-8' : opts.rule.contentType;
  return [{ variant: 'original', path: output, ext: opts.rule.ext, contentType }];
}

export async function checkPdf(file: string): Promise<void> {
  const { size } = await stat(file);
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(Math.min(size, 1024));
    await handle.read(head, 0, head.length, 0);
    // the header may follow a little junk (readers allow 1 KB)
    if (head.indexOf('%PDF-') < 0) throw new MediaContentError(UPLOAD_TEXTS.notPdf);
    const tailLength = Math.min(size, 4096);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    const text = tail.toString('latin1');
    const eof = text.lastIndexOf('%%EOF');
    const startxref = /startxref\s+(\d+)\s*$/.exec(text.slice(0, eof < 0 ? undefined : eof).trimEnd());
    if (eof < 0 || !startxref) throw new MediaContentError(UPLOAD_TEXTS.notPdf);
    const offset = Number(startxref[1]);
    if (!Number.isSafeInteger(offset) || offset <= 0 || offset >= size) throw new MediaContentError(UPLOAD_TEXTS.notPdf);
    const at = Buffer.alloc(Math.min(64, size - offset));
    await handle.read(at, 0, at.length, offset);
    const there = at.toString('latin1');
    if (!/^\s*(xref|\d+\s+\d+\s+obj)/.test(there)) throw new MediaContentError(UPLOAD_TEXTS.notPdf);
  } finally {
    await handle.close();
  }
}
