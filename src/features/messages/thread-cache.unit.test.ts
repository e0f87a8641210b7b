import { describe, expect, it } from 'vitest';
import type { MessageDto } from '../../../common/message-dtos';
import { QUICK_EMOJI } from '../../../common/messages';
import { markRead, removeMessage, setReactions, threadMessages, toggleReaction, upsertMessage, type ThreadData } from './thread-cache';

const message = (id: string, minute: number, extra: Partial<MessageDto> = {}): MessageDto => ({
  id,
  clientId: null,
  senderId: 'a',
  recipientId: 'b',
  content: id,
  attachment: null,
  replyToId: null,
  replyTo: null,
  createdAt: new Date(Date.UTC(2025, 0, 1, 12, minute)).toISOString(),
  editedAt: null,
  readAt: null,
  reactions: [],
  price: null,
  unlocked: true,
  locked: false,
  massMessageId: null,
  ...extra,
});

// page 0 is the newest page; within a page, oldest first
const data = (): ThreadData => ({
  pages: [
    { messages: [message('m3', 3), message('m4', 4, { replyToId: 'm1', replyTo: { id: 'm1', senderId: 'a', content: 'm1', mediaType: null, mediaUrl: null } })], nextCursor: 'c' },
    { messages: [message('m1', 1), message('m2', 2)], nextCursor: null },
  ],
  pageParams: [null, 'c'],
});

describe('the thread cache', () => {
  it('lists every page oldest first and adds a new message once, however often it arrives', () => {
    expect(threadMessages(data()).map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
    const once = upsertMessage(data(), message('m5', 5));
    const twice = upsertMessage(once, message('m5', 5, { content: 'edited' }));
    expect(threadMessages(twice).map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(threadMessages(twice).at(-1)?.content).toBe('edited');
  });

  it('removes a deleted message and the quote of it in replies', () => {
    const next = removeMessage(data(), 'm1');
    const messages = threadMessages(next);
    expect(messages.map((m) => m.id)).toEqual(['m2', 'm3', 'm4']);
    expect(messages.at(-1)?.replyTo).toBeNull();
  });

  it('sets read times and reactions only on the named messages', () => {
    const read = markRead(data(), ['m2', 'zzz'], '2025-01-01T13:00:00.000Z');
    expect(threadMessages(read).map((m) => m.readAt)).toEqual([null, '2025-01-01T13:00:00.000Z', null, null]);
    const reacted = setReactions(read, 'm3', [{ emoji: '🔥', count: 2, mine: true }]);
    expect(threadMessages(reacted)[2]?.reactions).toEqual([{ emoji: '🔥', count: 2, mine: true }]);
    expect(setReactions(reacted, 'nope', [])).toBe(reacted);
  });

  it('toggles my reaction in the quick emoji order', () => {
    const one = toggleReaction([{ emoji: '🔥', count: 1, mine: false }], '👍', QUICK_EMOJI);
    expect(one).toEqual([
      { emoji: '👍', count: 1, mine: true },
      { emoji: '🔥', count: 1, mine: false },
    ]);
    expect(toggleReaction(one, '👍', QUICK_EMOJI)).toEqual([{ emoji: '🔥', count: 1, mine: false }]);
    expect(toggleReaction(one, '🔥', QUICK_EMOJI)[1]).toEqual({ emoji: '🔥', count: 2, mine: true });
  });
});
