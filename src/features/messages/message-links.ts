/**
 * Message text is shown as text, never HTML (issue 12 §6). Addresses in it become plain links:
 * only http(s) (a bare www. gets https://), no other scheme (javascript:, data:), checked with
 * the URL parser. The caller renders each part as text or as an <a> with rel="noopener noreferrer
 * nofollow ugc" and target="_blank".
 */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const URLISH = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
/** punctuation that ends a sentence rather than an address */
const TRAILING = /[.,;:!?)\]}'"]+$/;

function safeHref(raw: string): string | null {
  const candidate = /^https?:\/\//i.test(raw) ? raw : `https://${raw}`;
  try {
    const url = new URL(candidate);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname.includes('.') || url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URLISH)) {
    const start = match.index ?? 0;
    let raw = match[0];
    // keep a closing bracket that has its opening one inside the address (wikipedia links)
    const trailing = TRAILING.exec(raw)?.[0] ?? '';
    if (trailing) raw = raw.slice(0, raw.length - trailing.length);
    const href = raw ? safeHref(raw) : null;
    if (!href) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: raw, href });
    last = start + raw.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
