/**
 * A minimal but valid PDF (catalog, pages, Helvetica, one content stream per page, exact xref
 * offsets), so the demo needs no PDF library. Text is limited to printable ASCII.
 */
export function buildPdf(title: string, pages: string[][]): Buffer {
  const escape = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
  const objects: string[] = [];
  const add = (body: string) => objects.push(body); // object number = index + 1

  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // pages, filled in once the page objects are numbered
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  add(`<< /Title (${escape(title)}) /Producer (creator demo seed) >>`);
  const pageRefs: string[] = [];
  for (const [index, lines] of pages.entries()) {
    const heading = index === 0 ? `/F1 22 Tf (${escape(title)}) Tj 0 -36 Td ` : '';
    const body = lines.map((line) => `(${escape(line)}) Tj T*`).join(' ');
    const stream = `BT 72 720 Td 18 TL ${heading}/F1 12 Tf ${body} ET`;
    add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length} 0 R >>`);
    pageRefs.push(`${objects.length} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${pageRefs.join(' ')}] /Count ${pageRefs.length} >>`;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
