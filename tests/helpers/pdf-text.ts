import { inflateSync } from 'node:zlib';

/**
 * The text of a PDF as pdfkit writes it with its built-in fonts (the receipts' PDF,
 * server/features/payments/receipt-pdf.ts): each content stream inflated, each text-showing
 * operator (TJ, Tj) one line, its hex or literal strings read as WinAnsi. Enough to assert what a
 * reader sees; not a general PDF reader.
 */
const WIN_ANSI_HIGH: Record<number, string> = {
  0x80: '€', 0x82: '‚', 0x83: 'ƒ', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡', 0x88: 'ˆ', 0x89: '‰', 0x8a: 'Š', 0x8b: '‹', 0x8c: 'Œ',
  0x8e: 'Ž', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—', 0x98: '˜', 0x99: '™', 0x9a: 'š', 0x9b: '›',
  0x9c: 'œ', 0x9e: 'ž', 0x9f: 'Ÿ',
};

const decode = (bytes: number[]) => bytes.map((b) => WIN_ANSI_HIGH[b] ?? String.fromCharCode(b)).join('');

function hexBytes(hex: string): number[] {
  const clean = hex.replace(/\s+/g, '');
  const even = clean.length % 2 ? `${clean}0` : clean;
  const out: number[] = [];
  for (let i = 0; i < even.length; i += 2) out.push(parseInt(even.slice(i, i + 2), 16));
  return out;
}

function literalBytes(literal: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < literal.length; i++) {
    const c = literal[i]!;
    if (c !== '\\') {
      out.push(c.charCodeAt(0));
      continue;
    }
    const next = literal[++i] ?? '';
    const octal = /^[0-7]{1,3}/.exec(literal.slice(i));
    if (octal) {
      out.push(parseInt(octal[0], 8));
      i += octal[0].length - 1;
    } else out.push(({ n: 10, r: 13, t: 9, b: 8, f: 12 } as Record<string, number>)[next] ?? next.charCodeAt(0));
  }
  return out;
}

function streams(pdf: Buffer): string[] {
  const out: string[] = [];
  const text = pdf.toString('latin1');
  const pattern = /<<([^]*?)>>\s*stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text))) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    const raw = pdf.subarray(start, end);
    try {
      out.push((/FlateDecode/.test(match[1]!) ? inflateSync(raw) : raw).toString('latin1'));
    } catch {
      // a font or image stream that is not text: skipped
    }
    pattern.lastIndex = end;
  }
  return out;
}

export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const content of streams(pdf)) {
    const shows = /\[((?:<[0-9a-fA-F\s]*>|\((?:\\.|[^\\)])*\)|[-\d.\s])*)\]\s*TJ|(<[0-9a-fA-F\s]*>|\((?:\\.|[^\\)])*\))\s*Tj/g;
    let show: RegExpExecArray | null;
    while ((show = shows.exec(content))) {
      const body = show[1] ?? show[2] ?? '';
      const parts = body.match(/<[0-9a-fA-F\s]*>|\((?:\\.|[^\\)])*\)/g) ?? [];
      lines.push(parts.map((p) => decode(p.startsWith('<') ? hexBytes(p.slice(1, -1)) : literalBytes(p.slice(1, -1)))).join(''));
    }
  }
  return lines.join('\n');
}
