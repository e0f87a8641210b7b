import { BRAND } from '../../common/texts';
import type { OutgoingMail } from './transport';

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A plain mail with one action: its lines, the action as a link (and the address written out for
 * clients that do not follow it), the brand's signature; text and HTML say the same.
 */
export function composeMail(to: string, subject: string, lines: string[], action: string, link: string): OutgoingMail {
  const text = [...lines, '', `${action}: ${link}`, '', `— ${BRAND.name}`].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
    `<p style="color:#666;font-size:12px">If the button does not work, copy this address into your browser:<br>${escapeHtml(link)}</p>`,
    `<p>— ${escapeHtml(BRAND.name)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html, link };
}
