import { findOwnAttachment } from '../../../domain/messaging/own-attachment.queries';
import { TRPCError } from '@trpc/server';
import { dispatchOutbox } from '../../../core/outbox/outbox';
import { notifyMessage } from '../../../domain/notifications/content';
import { markThreadsRead } from '../../../domain/notifications/read';
import type { ChatPreviewDto, MessageDto, PartnerDto, ReactionCountDto } from '../../../common/message-dtos';
import type {
  ChatListInput,
  EditMessageInput,
  MarkReadInput,
  MessageIdInput,
  PartnerInput,
  ReactInput,
  SendMessageInput,
  SinceInput,
  ThreadInput,
} from '../../../common/message-schemas';
import { CHAT_LIST_PAGE_SIZE, MESSAGE_PAGE_SIZE, MESSAGE_SEND_LIMIT, SINCE_MAX } from '../../../common/messages';
import { toCents } from '../../../common/money';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { PAID_MESSAGE_TEXTS } from '../../../common/paid-message-texts';
import type { AppDeps } from '../../../core/deps';
import type { EmitOrigin } from '../../../core/realtime/realtime';
import { canMessage, loadPartner } from '../../../domain/access/messaging';
import { findBlockedEitherWay } from '../../../domain/access/messaging.queries';
import { clearTyping } from '../../../domain/presence/presence';
import { limitOrThrow } from '../../auth/rate-limit';
import { requireMaySell } from '../../shared/selling';
import { decodeCursor, encodeCursor, toChatPreviewDto, toMessageDto, toReactionCounts } from './messages.dto';
import { announceUnreadCount, emitMessageNew, emitMessageUpdated } from './messages.events';
import { notifyOfflineRecipient } from './message-mail';
import {
  countUnreadMessages,
  deleteMessageRow,
  findChatPage,
  findMessageByClientId,
  findMessageFacts,
  findMessagesByIds,
  findMessagesSince,
  findReactionCounts,
  findThreadPage,
  insertMessage,
  isCreator,
  markMessagesRead,
  refreshConversation,
  toggleReaction,
  touchConversation,
  updateMessageContent,
} from './messages.queries';
import { partnerOnline } from './presence.service';

export { announceUnreadCount } from './messages.events';

/**
 * Direct messages: every rule of spec part 2 §2, §5, §6 on the server. Who may find and write to
 * whom is decided by domain/access/messaging.ts; a message is read, edited, deleted, reacted to or
 * reported only by its participants (anyone else is told 'Message not found'), and edited or
 * deleted only by its author. Blocks are in blocks.service.ts, online state and typing in
 * presence.service.ts, reports in reports.service.ts, the SQL in messages.queries.ts.
 */
export type MessagesDeps = Pick<AppDeps, 'db' | 'redis' | 'config' | 'realtime' | 'queues' | 'log' | 'storage' | 'payments'> & Partial<EmitOrigin>;

const notFound = (message: string) => new TRPCError({ code: 'NOT_FOUND', message });

/** The number behind the Messages badge (the client shows 99+ above 99). */
export function unreadCount(deps: Pick<AppDeps, 'db'>, userId: string): Promise<number> {
  return countUnreadMessages(deps.db, userId);
}

/** The partner the caller names, as the messaging rule sees them; NOT_FOUND with `message` when none. */
export async function partnerOrThrow(deps: MessagesDeps, userId: string, username: string, message: string = MESSAGE_TEXTS.userNotFound) {
  const partner = await loadPartner(deps.db, userId, { username });
  if (!partner) throw notFound(message);
  return partner;
}

export async function chatList(deps: MessagesDeps, userId: string, input: ChatListInput): Promise<{ chats: ChatPreviewDto[]; nextCursor: string | null }> {
  const cursor = decodeCursor(input.cursor);
  const rows = await findChatPage(deps.db, userId, cursor && { at: cursor.at, partnerId: cursor.id }, CHAT_LIST_PAGE_SIZE + 1);
  const page = rows.slice(0, CHAT_LIST_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    chats: page.map(toChatPreviewDto),
    nextCursor: rows.length > CHAT_LIST_PAGE_SIZE && last ? encodeCursor(last.last_message_at, last.partner_id) : null,
  };
}

export async function partner(deps: MessagesDeps, userId: string, input: PartnerInput): Promise<PartnerDto> {
  const found = await partnerOrThrow(deps, userId, input.username);
  return { profile: found.profile, online: await partnerOnline(deps, found), messaging: found.messaging };
}

export async function thread(deps: MessagesDeps, userId: string, input: ThreadInput): Promise<{ messages: MessageDto[]; nextCursor: string | null }> {
  const found = await partnerOrThrow(deps, userId, input.username);
  const cursor = decodeCursor(input.cursor);
  const rows = await findThreadPage(deps.db, userId, found.profile.id, cursor && { createdAt: cursor.at, id: cursor.id }, MESSAGE_PAGE_SIZE + 1);
  const page = rows.slice(0, MESSAGE_PAGE_SIZE);
  const oldest = page[page.length - 1];
  // across a block neither side learns whether the other read their messages
  const blocked = found.messaging !== 'available' && (await findBlockedEitherWay(deps.db, userId, [found.profile.id])).size > 0;
  const hideRead = (m: MessageDto): MessageDto => (blocked && m.senderId === userId ? { ...m, readAt: null } : m);
  return {
    messages: page.reverse().map((row) => toMessageDto(row, userId)).map(hideRead),
    nextCursor: rows.length > MESSAGE_PAGE_SIZE && oldest ? encodeCursor(oldest.created_at, oldest.id) : null,
  };
}

async function messageDto(deps: MessagesDeps, viewerId: string, id: string): Promise<MessageDto> {
  const [row] = await findMessagesByIds(deps.db, viewerId, [id]);
  if (!row) throw notFound(MESSAGE_TEXTS.messageNotFound);
  return toMessageDto(row, viewerId);
}

/**
 * 30 messages a minute per user, counted in Redis; with the counter out of reach (Redis down)
 * counted in this process instead, so nobody sends unlimited and sending goes on.
 */
function limitSending(deps: MessagesDeps, userId: string): Promise<void> {
  return limitOrThrow(deps.redis, deps.config.REDIS_PREFIX, 'message-send', [`user:${userId}`], MESSAGE_SEND_LIMIT, {
    message: MESSAGE_TEXTS.sendRateLimited,
    whileRedisIsAway: 'count-locally',
  });
}

/**
 * Sends one message. Idempotent by (sender, clientId): a repeat (a retry after a lost answer, a
 * double click) returns the message made the first time and makes no second row, whatever the
 * rest of the input says. The message and both sides of the conversation are written in one
 * transaction; the events, the badge and the offline mail follow the commit.
 */
export async function sendMessage(deps: MessagesDeps, senderId: string, input: SendMessageInput): Promise<MessageDto> {
  const repeat = await findMessageByClientId(deps.db, senderId, input.clientId);
  if (repeat) return messageDto(deps, senderId, repeat.id);

  const recipient = await partnerOrThrow(deps, senderId, input.username, MESSAGE_TEXTS.recipientNotFound);
  if (recipient.messaging !== 'available') throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGE_TEXTS.cannotMessage });
  const recipientId = recipient.profile.id;
  const content = input.content ?? '';
  if (!content && !input.attachmentId) throw new TRPCError({ code: 'BAD_REQUEST', message: MESSAGE_TEXTS.emptyMessage });
  await limitSending(deps, senderId);

  let attachmentKind: string | null = null;
  if (input.attachmentId) {
    const attachment = await findOwnAttachment(deps.db, senderId, input.attachmentId);
    if (!attachment || attachment.used) throw new TRPCError({ code: 'BAD_REQUEST', message: MESSAGE_TEXTS.attachmentNotFound });
    if (attachment.status === 'failed') throw new TRPCError({ code: 'BAD_REQUEST', message: MESSAGE_TEXTS.attachmentFailed });
    attachmentKind = attachment.kind;
  }
  if (input.price) {
    // a price sells the file: only a creator sells, and only with a file (issue 27 item 3)
    if (!input.attachmentId) throw new TRPCError({ code: 'BAD_REQUEST', message: PAID_MESSAGE_TEXTS.priceNeedsFile });
    if (!(await isCreator(deps.db, senderId))) throw new TRPCError({ code: 'FORBIDDEN', message: PAID_MESSAGE_TEXTS.creatorsOnly });
    await requireMaySell(deps, senderId, 'messagePrice');
  }
  if (input.replyToId) {
    const quoted = await findMessageFacts(deps.db, input.replyToId);
    const inPair =
      quoted &&
      ((quoted.sender_id === senderId && quoted.recipient_id === recipientId) || (quoted.sender_id === recipientId && quoted.recipient_id === senderId));
    if (!inPair) throw new TRPCError({ code: 'BAD_REQUEST', message: MESSAGE_TEXTS.replyNotInConversation });
  }

  const id = await deps.db.transaction().execute(async (trx) => {
    const inserted = await insertMessage(trx, {
      sender_id: senderId,
      recipient_id: recipientId,
      content: content || null,
      attachment_id: input.attachmentId ?? null,
      media_type: attachmentKind,
      reply_to_id: input.replyToId ?? null,
      client_id: input.clientId,
      price_cents: input.price ? toCents(input.price) : null,
    });
    if (!inserted) return null;
    await touchConversation(trx, senderId, recipientId, inserted.id);
    return { id: inserted.id, notices: await notifyMessage(trx, { recipientId, senderId, at: new Date() }) };
  });
  // a concurrent request with the same clientId won the race: answer with its message
  if (!id) {
    const winner = await findMessageByClientId(deps.db, senderId, input.clientId);
    if (!winner) throw new TRPCError({ code: 'CONFLICT', message: MESSAGE_TEXTS.sendFailed });
    return messageDto(deps, senderId, winner.id);
  }

  await dispatchOutbox(deps, id.notices);
  const [row] = await findMessagesByIds(deps.db, senderId, [id.id]);
  if (!row) throw notFound(MESSAGE_TEXTS.messageNotFound);
  const message = emitMessageNew(deps, row);
  await announceUnreadCount(deps, recipientId);
  await clearTyping(deps.redis, deps.config.REDIS_PREFIX, senderId, recipientId).catch(() => {});
  await notifyOfflineRecipient(deps, { messageId: id.id, senderId, recipientId, sentAt: new Date(message.createdAt) });
  return message;
}

/**
 * An edit or a reaction reaches the other participant like a message: refused, in the words of a
 * refused send, when the caller may not write to them now (a block either way, a profile gone private).
 */
async function mayReachPartner(deps: MessagesDeps, userId: string, facts: { sender_id: string; recipient_id: string }) {
  const partnerId = facts.sender_id === userId ? facts.recipient_id : facts.sender_id;
  if (!(await canMessage(deps.db, userId, partnerId))) throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGE_TEXTS.cannotMessage });
}

/** The message, when the caller is one of its two participants; 'Message not found' otherwise. */
async function participantMessage(deps: MessagesDeps, userId: string, id: string) {
  const facts = await findMessageFacts(deps.db, id);
  if (!facts || (facts.sender_id !== userId && facts.recipient_id !== userId)) throw notFound(MESSAGE_TEXTS.messageNotFound);
  return facts;
}

export async function editMessage(deps: MessagesDeps, userId: string, input: EditMessageInput): Promise<MessageDto> {
  const facts = await participantMessage(deps, userId, input.id);
  if (facts.sender_id !== userId) throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGE_TEXTS.editOwnOnly });
  if (!input.content) throw new TRPCError({ code: 'BAD_REQUEST', message: MESSAGE_TEXTS.emptyMessage });
  await mayReachPartner(deps, userId, facts);
  await updateMessageContent(deps.db, facts.id, userId, input.content);
  // the caller's view is one of the two the event is built from
  const mine = (await emitMessageUpdated(deps, facts.id, [facts.sender_id, facts.recipient_id])).get(userId);
  if (!mine) throw notFound(MESSAGE_TEXTS.messageNotFound);
  return mine;
}

/**
 * Deletes one of the caller's messages: its reactions go with it, replies keep their place
 * without the quote, reports keep their snapshot, both chat lists point at the message before
 * (one transaction), and its file leaves storage after the commit.
 */
export async function deleteMessage(deps: MessagesDeps, userId: string, input: MessageIdInput): Promise<{ id: string }> {
  const facts = await participantMessage(deps, userId, input.id);
  if (facts.sender_id !== userId) throw new TRPCError({ code: 'FORBIDDEN', message: MESSAGE_TEXTS.deleteOwnOnly });
  if (!(await removeMessage(deps, facts))) throw notFound(MESSAGE_TEXTS.messageNotFound);
  return { id: facts.id };
}

/**
 * Removes a message (its author deleting it, or an admin acting on a report): the row, its
 * reactions and attachment row and the conversations in one transaction; the file after the
 * commit; both participants hear it. False when it was gone already.
 */
export async function removeMessage(
  deps: MessagesDeps,
  facts: { id: string; sender_id: string; recipient_id: string; read_at: Date | null },
): Promise<boolean> {
  const keys = await deps.db.transaction().execute(async (trx) => {
    const deleted = await deleteMessageRow(trx, facts.id, facts.sender_id);
    if (deleted) await refreshConversation(trx, facts.sender_id, facts.recipient_id);
    return deleted;
  });
  if (keys === null) return false;
  for (const key of keys) {
    await deps.storage.delete(key).catch((error: unknown) => deps.log.warn({ err: error, key }, 'could not delete a message file'));
  }
  const except = deps.socketId ?? null;
  const event = { messageId: facts.id, senderId: facts.sender_id, recipientId: facts.recipient_id };
  deps.realtime.toUser(facts.recipient_id, 'message:deleted', event, { except });
  deps.realtime.toUser(facts.sender_id, 'message:deleted', event, { except });
  if (!facts.read_at) await announceUnreadCount(deps, facts.recipient_id);
  return true;
}

/** Toggles the caller's reaction (one of each emoji per user per message); both participants hear the new counts. */
export async function reactToMessage(deps: MessagesDeps, userId: string, input: ReactInput): Promise<{ messageId: string; reactions: ReactionCountDto[] }> {
  const facts = await participantMessage(deps, userId, input.id);
  await mayReachPartner(deps, userId, facts);
  await deps.db.transaction().execute((trx) => toggleReaction(trx, facts.id, userId, input.emoji));
  const rows = await findReactionCounts(deps.db, facts.id);
  let mine: ReactionCountDto[] = [];
  for (const receiver of [facts.sender_id, facts.recipient_id]) {
    const reactions = toReactionCounts(rows.map((r) => ({ emoji: r.emoji, count: r.count, mine: r.user_ids.includes(receiver) })));
    if (receiver === userId) mine = reactions;
    deps.realtime.toUser(receiver, 'message:reactions', { messageId: facts.id, reactions }, { except: deps.socketId ?? null });
  }
  return { messageId: facts.id, reactions: mine };
}

/**
 * Marks messages to the caller as read, in one statement: ids of messages to anyone else (or
 * unknown, or read already) change nothing. Each sender hears which of theirs were read (two
 * checks), unless a block stands between them (a read receipt reaches the other side like a
 * message, and the thread hides read state across a block); the caller's other tabs hear it too,
 * and the badge follows.
 */
export async function markRead(deps: MessagesDeps, userId: string, input: MarkReadInput): Promise<{ ids: string[]; readAt: string }> {
  const { ids } = input;
  const readAt = new Date();
  const rows = await markMessagesRead(deps.db, userId, ids, readAt);
  const iso = readAt.toISOString();
  if (rows.length) {
    const bySender = new Map<string, string[]>();
    for (const row of rows) bySender.set(row.sender_id, [...(bySender.get(row.sender_id) ?? []), row.id]);
    const blocked = await findBlockedEitherWay(deps.db, userId, [...bySender.keys()]);
    for (const [senderId, messageIds] of bySender) {
      const event = { messageIds, readAt: iso, readerId: userId, senderId };
      if (!blocked.has(senderId)) deps.realtime.toUser(senderId, 'message:read', event);
      deps.realtime.toUser(userId, 'message:read', event, { except: deps.socketId ?? null });
    }
    await announceUnreadCount(deps, userId);
    await markThreadsRead(deps, userId, [...bySender.keys()]);
  }
  return { ids: rows.map((r) => r.id), readAt: iso };
}

/** Reconnect catch-up: the caller's messages (to or from them) after one they saw, oldest first. */
export async function messagesSince(deps: MessagesDeps, userId: string, input: SinceInput): Promise<{ messages: MessageDto[]; hasMore: boolean }> {
  const anchor = await participantMessage(deps, userId, input.afterId);
  const rows = await findMessagesSince(deps.db, userId, { createdAt: anchor.created_at, id: anchor.id }, SINCE_MAX + 1);
  return { messages: rows.slice(0, SINCE_MAX).map((row) => toMessageDto(row, userId)), hasMore: rows.length > SINCE_MAX };
}
