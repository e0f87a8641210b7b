import type { InfiniteData } from '@tanstack/react-query';
import type { MessageAttachmentDto, MessageDto, ReactionCountDto } from '../../../common/message-dtos';

/**
 * The thread's pages as React Query keeps them: page 0 is the newest 20 messages, each later page
 * older ones; within a page messages are oldest first (the API's order). These pure functions
 * patch that cache for a live event or a mutation's answer, so nothing refetches and nothing is
 * shown twice (every change is matched by message id).
 */
export interface ThreadPage {
  messages: MessageDto[];
  nextCursor: string | null;
}
export type ThreadData = InfiniteData<ThreadPage, string | null | undefined>;

const byTime = (a: MessageDto, b: MessageDto) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/** Every message, oldest first. */
export function threadMessages(data: ThreadData | undefined): MessageDto[] {
  if (!data) return [];
  const out: MessageDto[] = [];
  for (let i = data.pages.length - 1; i >= 0; i--) out.push(...data.pages[i]!.messages);
  return out;
}

function mapMessages(data: ThreadData, fn: (messages: MessageDto[]) => MessageDto[]): ThreadData {
  let changed = false;
  const pages = data.pages.map((page) => {
    const messages = fn(page.messages);
    if (messages === page.messages) return page;
    changed = true;
    return { ...page, messages };
  });
  return changed ? { ...data, pages } : data;
}

/** A new message (or one that is already there: replaced in place). New ones go to the newest page, in time order. */
export function upsertMessage(data: ThreadData | undefined, message: MessageDto): ThreadData | undefined {
  if (!data || data.pages.length === 0) return data;
  const exists = data.pages.some((p) => p.messages.some((m) => m.id === message.id));
  if (exists) return replaceMessage(data, message);
  const [first, ...rest] = data.pages;
  const messages = [...first!.messages, message].sort(byTime);
  return { ...data, pages: [{ ...first!, messages }, ...rest] };
}

/** An edited message (or one whose attachment became ready): replaced where it is; unknown ids change nothing. */
export function replaceMessage(data: ThreadData, message: MessageDto): ThreadData {
  return mapMessages(data, (messages) =>
    messages.some((m) => m.id === message.id) ? messages.map((m) => (m.id === message.id ? message : m)) : messages,
  );
}

/** A deleted message leaves the thread; replies quoting it keep the reply but lose the quote. */
export function removeMessage(data: ThreadData, messageId: string): ThreadData {
  return mapMessages(data, (messages) => {
    if (!messages.some((m) => m.id === messageId || m.replyTo?.id === messageId)) return messages;
    return messages.filter((m) => m.id !== messageId).map((m) => (m.replyTo?.id === messageId ? { ...m, replyTo: null } : m));
  });
}

/** The message `messageId` with these fields changed, wherever it is cached (other messages untouched). */
function patchMessage(data: ThreadData, messageId: string, patch: Partial<MessageDto>): ThreadData {
  return mapMessages(data, (messages) =>
    messages.some((m) => m.id === messageId) ? messages.map((m) => (m.id === messageId ? { ...m, ...patch } : m)) : messages,
  );
}

export function setReactions(data: ThreadData, messageId: string, reactions: ReactionCountDto[]): ThreadData {
  return patchMessage(data, messageId, { reactions });
}

/** A sent message's attachment finished processing (ready, with its URL, or failed with its reason). */
export function setAttachment(data: ThreadData, messageId: string, attachment: MessageAttachmentDto): ThreadData {
  return patchMessage(data, messageId, { attachment });
}

/** Read receipts: these messages were read at `readAt` (those already read keep their time). */
export function markRead(data: ThreadData, ids: readonly string[], readAt: string): ThreadData {
  const set = new Set(ids);
  return mapMessages(data, (messages) =>
    messages.some((m) => set.has(m.id) && !m.readAt) ? messages.map((m) => (set.has(m.id) && !m.readAt ? { ...m, readAt } : m)) : messages,
  );
}

/** Whether the thread with this partner holds the message (by id). */
export function hasMessage(data: ThreadData | undefined, messageId: string): boolean {
  return !!data?.pages.some((p) => p.messages.some((m) => m.id === messageId));
}

/**
 * My reaction toggled, before the server answers: the count moves by one and `mine` flips; an
 * emoji at 0 disappears. The order follows `order` (the 8 quick emoji).
 */
export function toggleReaction(reactions: ReactionCountDto[], emoji: string, order: readonly string[]): ReactionCountDto[] {
  const current = reactions.find((r) => r.emoji === emoji);
  let next: ReactionCountDto[];
  if (!current) next = [...reactions, { emoji, count: 1, mine: true }];
  else if (current.mine) next = reactions.map((r) => (r.emoji === emoji ? { ...r, count: r.count - 1, mine: false } : r));
  else next = reactions.map((r) => (r.emoji === emoji ? { ...r, count: r.count + 1, mine: true } : r));
  return next.filter((r) => r.count > 0).sort((a, b) => order.indexOf(a.emoji) - order.indexOf(b.emoji));
}
