import { lockedAttachment, type MessageAttachmentDto, type MessageReplyDto } from '../../common/message-dtos';
import { messageMediaUrl, type AttachmentStatus, type MessageMediaKind } from '../../common/messages';
import { messageFileOpen } from '../access/messaging';

/**
 * The one place that shapes a message's file for a viewer (issue 46 item 3). Every answer and
 * event that carries a message, its file or a quote of it goes through here: the thread, the
 * catch-up, a send's answer, `message:new` (to each participant, and a message to many's copies),
 * `message:updated`, `message:attachment` and the quoted message of a reply. A pay-per-view file
 * its viewer has not bought shows its kind, size and shape and the blurred preview; never its
 * address, its type or its file name (domain/access/messaging.ts `messageFileOpen` decides).
 */

/** What decides whether a message's file is open: who sent it to whom, its price, whether the recipient bought it. */
export interface MessageSale {
  senderId: string;
  recipientId: string;
  /** whole cents, or null when free */
  priceCents: number | null;
  /** the recipient bought it (messageUnlockedBy); ignored when free */
  unlocked: boolean;
}

/** Whether the message's file is closed to `viewerId` until bought (or for good: anyone outside the message). */
export function fileLockedFor(viewerId: string, sale: MessageSale): boolean {
  return !messageFileOpen({ viewerId, ...sale });
}

/** The message's file as `viewerId` may see it: the whole DTO when open, else the locked stand-in. */
export function attachmentForViewer(viewerId: string, sale: MessageSale, attachment: MessageAttachmentDto): MessageAttachmentDto;
export function attachmentForViewer(viewerId: string, sale: MessageSale, attachment: MessageAttachmentDto | null): MessageAttachmentDto | null;
export function attachmentForViewer(viewerId: string, sale: MessageSale, attachment: MessageAttachmentDto | null): MessageAttachmentDto | null {
  if (!attachment) return null;
  return fileLockedFor(viewerId, sale) ? lockedAttachment(attachment) : attachment;
}

/**
 * The quoted message of a reply as `viewerId` may see it: its text and the kind of its file
 * always (both participants saw the message itself), the file's address only when the quoted
 * message's file is open to the viewer.
 */
export function quoteForViewer(
  viewerId: string,
  quoted: MessageSale & { id: string; content: string | null; file: { id: string; kind: MessageMediaKind; status: AttachmentStatus } | null },
): MessageReplyDto {
  const open = quoted.file !== null && quoted.file.status === 'ready' && !fileLockedFor(viewerId, quoted);
  return {
    id: quoted.id,
    senderId: quoted.senderId,
    content: quoted.content,
    mediaType: quoted.file?.kind ?? null,
    mediaUrl: open && quoted.file ? messageMediaUrl(quoted.file.id) : null,
  };
}
