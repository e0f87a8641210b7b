import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { MessageDto, ReactionCountDto } from '../../../common/message-dtos';
import { QUICK_EMOJI, type QuickEmoji } from '../../../common/messages';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { patchThreads, refreshChatList } from './messages-cache';
import { serverMessage } from './server-message';
import { markRead, removeMessage, replaceMessage, setReactions, toggleReaction } from './thread-cache';

const toastError = (description: string) => notify.error({ title: 'Error', description });

/** What is done to messages already sent (edit, delete, react, mark read), each patched into every cached thread from the server's answer. */
export function useMessageEdits() {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  const edit = useCallback(
    async (id: string, content: string): Promise<boolean> => {
      const text = content.trim();
      if (!text) {
        toastError(MESSAGE_TEXTS.emptyMessage);
        return false;
      }
      try {
        const message = await utils.client.messages.edit.mutate({ id, content: text });
        patchThreads(queryClient, (data) => replaceMessage(data, message));
        refreshChatList(queryClient);
        notify.success({ title: MESSAGE_TEXTS.updated });
        return true;
      } catch (error) {
        toastError(serverMessage(error, MESSAGE_TEXTS.editFailed));
        return false;
      }
    },
    [utils, queryClient],
  );

  const remove = useCallback(
    async (id: string) => {
      try {
        await utils.client.messages.delete.mutate({ id });
        patchThreads(queryClient, (data) => removeMessage(data, id));
        refreshChatList(queryClient);
        notify.success({ title: MESSAGE_TEXTS.deleted });
      } catch (error) {
        toastError(serverMessage(error, MESSAGE_TEXTS.deleteFailed));
      }
    },
    [utils, queryClient],
  );

  /** My reaction toggled at once; the server's counts replace the guess (or the old ones come back). */
  const react = useCallback(
    async (message: MessageDto, emoji: QuickEmoji) => {
      const before: ReactionCountDto[] = message.reactions;
      patchThreads(queryClient, (data) => setReactions(data, message.id, toggleReaction(before, emoji, QUICK_EMOJI)));
      try {
        const { reactions } = await utils.client.messages.react.mutate({ id: message.id, emoji });
        patchThreads(queryClient, (data) => setReactions(data, message.id, reactions));
      } catch (error) {
        patchThreads(queryClient, (data) => setReactions(data, message.id, before));
        toastError(serverMessage(error, MESSAGE_TEXTS.sendFailed));
      }
    },
    [utils, queryClient],
  );

  /** One call for a batch of ids (only messages to me change on the server). */
  const markSeen = useCallback(
    async (ids: string[]) => {
      try {
        const { ids: changed, readAt } = await utils.client.messages.markRead.mutate({ ids });
        if (changed.length) {
          patchThreads(queryClient, (data) => markRead(data, changed, readAt));
          refreshChatList(queryClient);
        }
      } catch {
        toastError(MESSAGE_TEXTS.readFailed);
      }
    },
    [utils, queryClient],
  );

  return { edit, remove, react, markSeen };
}
