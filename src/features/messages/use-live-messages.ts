import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useEffect, useEffectEvent, useRef } from 'react';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { useIsRoomJoined, useRoom } from '../../lib/realtime/rooms';
import { errorCode, trpc } from '../../lib/trpc';
import { addToThread, patchThreads, refreshChatList } from './messages-cache';
import { getOpenThread, newestSeenId, noteSeen } from './messages-queries';
import { markRead, removeMessage, replaceMessage, setAttachment, setReactions } from './thread-cache';

/**
 * Keeps the messaging caches live while a messaging screen is open (issue 12 §5). The server
 * sends every change to the user rooms of both participants (the tab that made it is left out:
 * it has applied it already):
 * - `message:new` goes into the partner's cached thread; `message:updated` / `:deleted` /
 *   `:reactions` / `:read` / `:attachment` patch the message wherever it is cached (by id: never
 *   doubled), so an attachment still processing when it was sent opens once it is ready;
 * - the chat list is read again on each (its order, last message and unread counts change).
 * After a reconnect, or a `resync` (the server's Redis connection came back: events sent meanwhile
 * were lost), the tab asks `messages.since` for what it missed, from the newest message it
 * saw, merges it by id, and re-reads the lists (edits, deletions and reads missed meanwhile).
 */
export function useLiveMessages(myId: string | null): void {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  useRealtimeEvent('message:new', ({ message }) => {
    if (!myId) return;
    noteSeen([message]);
    addToThread(queryClient, message, myId);
    refreshChatList(queryClient);
  });
  useRealtimeEvent('message:updated', ({ message }) => {
    patchThreads(queryClient, (data) => replaceMessage(data, message));
    refreshChatList(queryClient);
  });
  useRealtimeEvent('message:deleted', ({ messageId }) => {
    patchThreads(queryClient, (data) => removeMessage(data, messageId));
    refreshChatList(queryClient);
  });
  useRealtimeEvent('message:reactions', ({ messageId, reactions }) => {
    patchThreads(queryClient, (data) => setReactions(data, messageId, reactions));
  });
  useRealtimeEvent('message:attachment', ({ attachment, messageId }) => {
    // an attachment not sent yet is the composer's (it waits for its own upload)
    if (messageId) patchThreads(queryClient, (data) => setAttachment(data, messageId, attachment));
  });
  useRealtimeEvent('message:read', ({ messageIds, readAt }) => {
    patchThreads(queryClient, (data) => markRead(data, messageIds, readAt));
    refreshChatList(queryClient);
  });

  // The server lost events on their way (a Redis outage) while this socket stayed connected.
  useRealtimeEvent('resync', () => {
    if (myId) void catchUp(myId);
  });

  // Reconnect: the user room is joined again on every new connection; a join after a loss means
  // this tab was offline for a while.
  useRoom('user', myId);
  const joined = useIsRoomJoined('user', myId ?? '');
  const wasJoined = useRef(false);
  const lost = useRef(false);
  const catchUpAfterLoss = useEffectEvent((me: string) => void catchUp(me));
  useEffect(() => {
    if (joined && wasJoined.current && lost.current && myId) {
      lost.current = false;
      catchUpAfterLoss(myId);
    }
    if (joined) wasJoined.current = true;
    else if (wasJoined.current) lost.current = true;
  }, [joined, myId]);

  async function catchUp(me: string) {
    let afterId = newestSeenId();
    try {
      for (let round = 0; afterId && round < 20; round++) {
        const { messages, hasMore } = await utils.client.messages.since.query({ afterId });
        for (const message of messages) addToThread(queryClient, message, me);
        noteSeen(messages);
        if (!hasMore || messages.length === 0) break;
        afterId = messages.at(-1)!.id;
      }
    } catch (error) {
      // NOT_FOUND: the message we last saw was deleted; the refetches below bring everything
      if (errorCode(error) !== 'NOT_FOUND') console.error('Catching up on messages failed', error);
    }
    void utils.messages.unreadCount.invalidate();
    refreshChatList(queryClient);
    const open = getOpenThread();
    void queryClient.invalidateQueries({
      queryKey: getQueryKey(trpc.messages.thread, open ? { username: open.username } : undefined),
    });
  }
}
