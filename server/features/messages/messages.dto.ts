import type { ChatPreviewDto, MessageDto, ReactionCountDto } from '../../../common/message-dtos';
import { QUICK_EMOJI } from '../../../common/messages';
import { fromCents } from '../../../common/money';
import { readCents } from '../../../core/db/cents';
import { toAttachmentDto } from '../../../domain/messaging/attachments';
import { attachmentForViewer, fileLockedFor, quoteForViewer, type MessageSale } from '../../../domain/messaging/message-view';
import { toBadgedPerson } from '../../../domain/people/person-columns';
import type { MessageRow, findChatPage } from './messages.queries';

/** Rows to DTOs: never a raw row, never a storage key. */

const emojiOrder = (emoji: string) => {
  const i = (QUICK_EMOJI as readonly string[]).indexOf(emoji);
  return i === -1 ? QUICK_EMOJI.length : i;
};

export function toReactionCounts(rows: readonly { emoji: string; count: number; mine: boolean }[]): ReactionCountDto[] {
  return rows
    .filter((r) => r.count > 0)
    .map((r) => ({ emoji: r.emoji, count: Number(r.count), mine: Boolean(r.mine) }))
    .sort((a, b) => emojiOrder(a.emoji) - emojiOrder(b.emoji));
}

/**
 * The message as `viewerId` sees it: a pay-per-view file not bought is `locked` for its recipient,
 * in the message and in any reply quoting it (its kind and size show, its address and name do not:
 * domain/messaging/message-view.ts, the one place that shapes a message's file for a viewer).
 */
export function toMessageDto(row: MessageRow, viewerId: string): MessageDto {
  const priceCents = readCents(row.price_cents);
  const unlocked = priceCents === null || Boolean(row.unlocked);
  const sale: MessageSale = { senderId: row.sender_id, recipientId: row.recipient_id, priceCents, unlocked };
  const locked = fileLockedFor(viewerId, sale);
  return {
    id: row.id,
    clientId: row.client_id,
    senderId: row.sender_id,
    recipientId: row.recipient_id,
    content: row.content,
    attachment: attachmentForViewer(
      viewerId,
      sale,
      row.a_id && row.a_kind && row.a_status && row.a_filename !== null && row.a_byte_size !== null
        ? toAttachmentDto({
            id: row.a_id,
            kind: row.a_kind,
            status: row.a_status,
            contentType: row.a_content_type,
            fileName: row.a_filename,
            byteSize: row.a_byte_size,
            width: row.a_width,
            height: row.a_height,
            duration: row.a_duration,
            failure: row.a_failure,
          })
        : null,
    ),
    replyToId: row.reply_to_id,
    replyTo:
      row.r_id && row.r_sender_id && row.r_recipient_id
        ? quoteForViewer(viewerId, {
            id: row.r_id,
            senderId: row.r_sender_id,
            recipientId: row.r_recipient_id,
            content: row.r_content,
            priceCents: readCents(row.r_price_cents),
            unlocked: Boolean(row.r_unlocked),
            file: row.ra_id && row.ra_kind && row.ra_status ? { id: row.ra_id, kind: row.ra_kind, status: row.ra_status } : null,
          })
        : null,
    createdAt: row.created_at,
    editedAt: row.edited_at,
    readAt: row.read_at,
    reactions: toReactionCounts(row.reactions ?? []),
    price: fromCents(priceCents),
    unlocked,
    locked,
    massMessageId: row.mass_message_id,
  };
}

export function toChatPreviewDto(row: Awaited<ReturnType<typeof findChatPage>>[number]): ChatPreviewDto {
  return {
    partner: toBadgedPerson(row),
    lastMessage:
      row.lm_id && row.lm_sender_id && row.lm_created_at
        ? { id: row.lm_id, senderId: row.lm_sender_id, content: row.lm_content, mediaType: row.lm_kind ?? null, createdAt: row.lm_created_at }
        : null,
    unreadCount: Number(row.unread),
  };
}

/** `<iso>~<id>` cursors (checked by common/cursor-schema.ts joinedCursor). */
export const encodeCursor = (at: string, id: string) => `${at}~${id}`;
export function decodeCursor(cursor: string | null | undefined): { at: string; id: string } | null {
  if (!cursor) return null;
  const [at, id] = cursor.split('~') as [string, string];
  return { at, id };
}
