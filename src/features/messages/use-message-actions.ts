import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useCallback, useRef } from 'react';
import type { MessageAttachmentDto, MessageDto, MessageReplyDto, ReactionCountDto } from '../../../common/message-dtos';
import { QUICK_EMOJI, type QuickEmoji } from '../../../common/messages';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';
import { attachmentKindOf } from './attachment-kind';
import { patchThreads, refreshChatList } from './messages-cache';
import { noteSeen } from './messages-queries';
import { pendingStore } from './pending-messages';
import { markRead, removeMessage, replaceMessage, setReactions, toggleReaction, upsertMessage, type ThreadData } from './thread-cache';
import { AttachmentUploadError, uploadAttachment } from './upload-attachment';

/** The server's words when it answered, else the spec's fallback (spec part 2 §8). */
export function serverMessage(error: unknown, fallback: string): string {
  if (isServerError(error) && error.message && errorCode(error) !== 'INTERNAL_SERVER_ERROR') return error.message;
  if (!isServerError(error)) return fallback === MESSAGE_TEXTS.sendFailed ? MESSAGE_TEXTS.noResponse : fallback;
  return fallback;
}

const toastError = (description: string) => notify.error({ title: 'Error', description });

export interface SendInput {
  content: string;
  file: File | null;
  /** a creator's price on the file */
  price?: string | null;
  /** a file already on the server (from the creator's vault): sent as it is, no upload */
  attachment?: MessageAttachmentDto | null;
  replyTo: MessageReplyDto | null;
}

/**
 * Everything a thread does to messages, each with the spec's words on failure (part 2 §8) and
 * its cache patched from the answer (no refetch).
 */
export function useMessageActions(username: string, onMessagingRefused: () => void) {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  const putInThread = useCallback(
    (message: MessageDto) => {
      noteSeen([message]);
      queryClient.setQueryData<ThreadData>(getQueryKey(trpc.messages.thread, { username }, 'infinite'), (data) => upsertMessage(data, message));
      refreshChatList(queryClient);
    },
    [username, queryClient],
  );

  /** Uploads the file (once), then sends; the same clientId on every try, so a retry never makes two. */
  const run = useCallback(
    async (clientId: string) => {
      const item = pendingStore.get(clientId);
      if (!item) return;
      try {
        let attachmentId = item.attachmentId;
        if (item.file && !attachmentId) {
          pendingStore.update(clientId, { status: 'uploading', progress: 0, error: null });
          const upload = uploadAttachment(item.file, (progress) => pendingStore.update(clientId, { progress }));
          attachmentId = (await upload.promise).id;
          pendingStore.update(clientId, { attachmentId });
        }
        pendingStore.update(clientId, { status: 'sending', error: null });
        const message = await utils.client.messages.send.mutate({
          username,
          clientId,
          ...(item.content ? { content: item.content } : {}),
          ...(attachmentId ? { attachmentId } : {}),
          ...(attachmentId && item.price ? { price: item.price } : {}),
          ...(item.replyTo ? { replyToId: item.replyTo.id } : {}),
        });
        putInThread(message);
        pendingStore.remove(clientId);
      } catch (error) {
        const text = error instanceof AttachmentUploadError ? error.message : serverMessage(error, MESSAGE_TEXTS.sendFailed);
        pendingStore.update(clientId, { status: 'failed', error: text });
        toastError(text);
        if (errorCode(error) === 'FORBIDDEN') onMessagingRefused();
      }
    },
    [utils, username, putInThread, onMessagingRefused],
  );

  const send = useCallback(
    ({ content, file, replyTo, price = null, attachment = null }: SendInput) => {
      const clientId = crypto.randomUUID();
      pendingStore.add({
        clientId,
        username,
        content,
        replyTo,
        file,
        kind: file ? attachmentKindOf(file.name) : (attachment?.kind ?? null),
        previewUrl: file ? URL.createObjectURL(file) : (attachment?.url ?? null),
        attachmentId: attachment?.id ?? null,
        price,
        createdAt: new Date().toISOString(),
        status: file ? 'uploading' : 'sending',
        progress: 0,
        error: null,
      });
      void run(clientId);
    },
    [username, run],
  );

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

  // at most one typing signal every 3 s while typing (the server's expiry is a little longer)
  const lastTyping = useRef(0);
  const typing = useCallback(() => {
    const now = Date.now();
    if (now - lastTyping.current < 3_000) return;
    lastTyping.current = now;
    utils.client.messages.typing.mutate({ username }).catch(() => undefined);
  }, [utils, username]);

  return {
    send,
    retry: (clientId: string) => void run(clientId),
    discard: (clientId: string) => pendingStore.remove(clientId),
    edit,
    remove,
    react,
    markSeen,
    typing,
  };
}
