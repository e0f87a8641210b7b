import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useCallback } from 'react';
import type { MessageAttachmentDto, MessageDto, MessageReplyDto } from '../../../common/message-dtos';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';
import { attachmentKindOf } from './attachment-kind';
import { refreshChatList } from './messages-cache';
import { noteSeen } from './messages-queries';
import { pendingStore } from './pending-messages';
import { serverMessage } from './server-message';
import { upsertMessage, type ThreadData } from './thread-cache';
import { AttachmentUploadError, uploadAttachment } from './upload-attachment';

export interface SendInput {
  content: string;
  file: File | null;
  /** a creator's price on the file */
  price?: string | null;
  /** a file already on the server (from the creator's vault): sent as it is, no upload */
  attachment?: MessageAttachmentDto | null;
  replyTo: MessageReplyDto | null;
}

/** Sending to one thread: each message waits in the pending store (shown at once) until the server has it, and can be retried or dropped. */
export function usePendingSend(username: string, onMessagingRefused: () => void) {
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
        notify.error({ title: 'Error', description: text });
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

  return { send, retry: (clientId: string) => void run(clientId), discard: (clientId: string) => pendingStore.remove(clientId) };
}
