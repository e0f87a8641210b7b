import { BRAND } from '../../common/texts';
import type { OutgoingMail } from './transport';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * "You have a new message" (issue 12): who wrote and a link to the thread. The message's text is
 * left out: mail travels through servers that are not ours.
 */
export function newMessageMail(appUrl: string, to: string, sender: { username: string; displayName: string }): OutgoingMail {
  const link = new URL(`/messages/${encodeURIComponent(sender.username)}`, appUrl).toString();
  const subject = `New message from ${sender.displayName} on ${BRAND.name}`;
  const line = `${sender.displayName} (@${sender.username}) sent you a message.`;
  const footer = 'You get this mail because e-mail notifications are on in your settings.';
  const text = [line, '', `Open the conversation: ${link}`, '', footer, `— ${BRAND.name}`].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    `<p>${escapeHtml(line)}</p>`,
    `<p><a href="${escapeHtml(link)}">Open the conversation</a></p>`,
    `<p>${escapeHtml(footer)}</p>`,
    `<p>— ${escapeHtml(BRAND.name)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html, link };
}
