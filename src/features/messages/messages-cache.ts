import type { QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import type { MessageDto, PartnerDto } from '../../../common/message-dtos';
import { trpc } from '../../lib/trpc';
import { upsertMessage, type ThreadData } from './thread-cache';

/**
 * Patches every cached thread at once. Edits, deletions, reactions and read receipts name a
 * message id, which exists in at most one thread, so they are applied to all (a no-op elsewhere).
 */
export function patchThreads(queryClient: QueryClient, patch: (data: ThreadData) => ThreadData): void {
  queryClient.setQueriesData<ThreadData>({ queryKey: getQueryKey(trpc.messages.thread) }, (data) => (data ? patch(data) : data));
}

/** The partner (other user) of a message, seen from `myId`. */
export function partnerOf(message: Pick<MessageDto, 'senderId' | 'recipientId'>, myId: string): string {
  return message.senderId === myId ? message.recipientId : message.senderId;
}

/**
 * A new message goes into the cached thread with its partner (found through that thread's
 * partner query, which knows the partner's id). Threads not in the cache fetch it when opened.
 * Returns whether a cached thread took it.
 */
export function addToThread(queryClient: QueryClient, message: MessageDto, myId: string): boolean {
  const partnerId = partnerOf(message, myId);
  let added = false;
  for (const [key] of queryClient.getQueriesData<ThreadData>({ queryKey: getQueryKey(trpc.messages.thread) })) {
    const input = (key[1] as { input?: { username?: string } } | undefined)?.input;
    if (!input?.username) continue;
    const partner = queryClient.getQueryData<PartnerDto>(getQueryKey(trpc.messages.partner, { username: input.username }, 'query'));
    if (partner?.profile.id !== partnerId) continue;
    queryClient.setQueryData<ThreadData>(key, (data) => upsertMessage(data, message));
    added = true;
  }
  return added;
}

/** The chat list and the badge read again (a new last message, a changed unread count). */
export function refreshChatList(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.messages.chatList) });
}
