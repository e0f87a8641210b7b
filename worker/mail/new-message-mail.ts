import { BRAND } from '../../common/texts';
import { nameForMail } from './name-for-mail';
import type { OutgoingMail } from './transport';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * "You have new messages" (issue 12, issue 23 §5): who wrote, how many, and a link to the thread.
 * The messages' text is left out (mail travels through servers that are not ours), and the
 * sender's name goes through nameForMail: a display name is the sender's to choose, and must not
 * turn our mail into their advert or a phishing line.
 */
export function newMessageMail(appUrl: string, to: string, sender: { username: string; displayName: string }, count = 1): OutgoingMail {
  const link = new URL(`/messages/${encodeURIComponent(sender.username)}`, appUrl).toString();
  const name = nameForMail(sender.displayName);
  const subject = count === 1 ? `New message from ${name} on ${BRAND.name}` : `${count} new messages from ${name} on ${BRAND.name}`;
  const line = count === 1 ? `${name} sent you a message.` : `${name} sent you ${count} messages.`;
  const footer = 'You get this mail because e-mail notifications are on in your settings. Messages that arrive close together come in one mail.';
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
