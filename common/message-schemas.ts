import { z } from 'zod';
import { joinedCursor } from './cursor-schema';
import { attachmentId, idList, messageId, replyToId, reportId } from './ids';
import { MARK_READ_MAX, MESSAGE_MAX_LENGTH, QUICK_EMOJI, REPORT_REASON_MAX_LENGTH } from './messages';
import { safeString, safeText } from './text-schema';
import { MESSAGE_TEXTS } from './texts';
import { MessagePrice } from './paid-message-schemas';

/**
 * Inputs of the messages procedures (server/features/messages), shared with the client's forms.
 * Ids are common/ids.ts's: one that is not a uuid reads like any unknown id ('Message not found').
 */
const username = safeString('single-line').trim().min(1, MESSAGE_TEXTS.userNotFound).max(100);

/** Keyset position: `<created_at with microseconds, ISO>~<id>` (common/cursor-schema.ts). */
const cursor = joinedCursor('~').nullish();

/** Message text: trimmed; empty is allowed here (a file alone) and refused by the service when there is no file either. */
const content = z
  .string()
  .check(safeText('multi-line'))
  .transform((v) => v.trim())
  .pipe(z.string().max(MESSAGE_MAX_LENGTH, MESSAGE_TEXTS.tooLong(MESSAGE_MAX_LENGTH)));

export const ChatListInput = z.object({ cursor }).default({});
export type ChatListInput = z.output<typeof ChatListInput>;

export const PartnerInput = z.object({ username });
export type PartnerInput = z.output<typeof PartnerInput>;

export const ThreadInput = z.object({ username, cursor });
export type ThreadInput = z.output<typeof ThreadInput>;

export const SendMessageInput = z.object({
  username,
  content: content.optional(),
  attachmentId: attachmentId.optional(),
  replyToId: replyToId.optional(),
  /** a creator's price on the file (issue 27 item 3): the recipient opens it by paying */
  price: MessagePrice.nullish(),
  /** one per message the client creates; a retry of the same message sends the same one */
  clientId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'clientId must be 1-64 letters, digits, - or _'),
});
export type SendMessageInput = z.output<typeof SendMessageInput>;

export const EditMessageInput = z.object({ id: messageId, content });
export type EditMessageInput = z.output<typeof EditMessageInput>;

export const MessageIdInput = z.object({ id: messageId });
export type MessageIdInput = z.output<typeof MessageIdInput>;

export const ReactInput = z.object({ id: messageId, emoji: z.enum(QUICK_EMOJI, { message: 'Unknown emoji' }) });
export type ReactInput = z.output<typeof ReactInput>;

export const MarkReadInput = z.object({ ids: idList(MARK_READ_MAX) });
export type MarkReadInput = z.output<typeof MarkReadInput>;

export const SinceInput = z.object({ afterId: messageId });
export type SinceInput = z.output<typeof SinceInput>;

export const UsernameInput = z.object({ username });
export type UsernameInput = z.output<typeof UsernameInput>;

export const ReportMessageInput = z.object({
  messageId,
  reason: z
    .string()
    .check(safeText('multi-line'))
    .transform((v) => v.trim())
    .pipe(z.string().min(1, MESSAGE_TEXTS.reportReasonRequired).max(REPORT_REASON_MAX_LENGTH)),
});
export type ReportMessageInput = z.output<typeof ReportMessageInput>;

export const AdminReportsInput = z.object({ cursor, status: z.enum(['open', 'closed']).default('open') }).default({ status: 'open' });
export type AdminReportsInput = z.output<typeof AdminReportsInput>;

export const CloseReportInput = z.object({ id: reportId });
export type CloseReportInput = z.output<typeof CloseReportInput>;
/** Admins acting on one report: open it (logged), remove the message, suspend its sender. */
export const ReportIdInput = z.object({ id: reportId });
export type ReportIdInput = z.output<typeof ReportIdInput>;
