import { useSyncExternalStore } from 'react';
import type { MessageMediaKind } from '../../../common/messages';
import type { MessageReplyDto } from '../../../common/message-dtos';

/**
 * Messages this tab is sending (spec part 2 §4: 'sent (shown immediately, optimistically)'): shown
 * at the end of their thread at once, with the upload's progress, then replaced by the server's
 * message (matched by clientId), or left in a visible failed state with Retry. Kept outside React
 * Query so a refetch of the thread never drops one; kept per partner so leaving the thread and
 * coming back still shows them.
 */
export type PendingStatus = 'uploading' | 'sending' | 'failed';

export interface PendingMessage {
  clientId: string;
  /** the partner's username (lower case) */
  username: string;
  content: string;
  replyTo: MessageReplyDto | null;
  file: File | null;
  kind: MessageMediaKind | null;
  /** a blob: URL of the chosen file, for the preview */
  previewUrl: string | null;
  attachmentId: string | null;
  /** a creator's price on the file (issue 27 item 3) */
  price?: string | null;
  createdAt: string;
  status: PendingStatus;
  /** 0..1 while uploading */
  progress: number;
  error: string | null;
}

let pending: PendingMessage[] = [];
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export const pendingStore = {
  add(message: PendingMessage): void {
    pending = [...pending, message];
    emit();
  },
  update(clientId: string, patch: Partial<PendingMessage>): void {
    pending = pending.map((m) => (m.clientId === clientId ? { ...m, ...patch } : m));
    emit();
  },
  remove(clientId: string): void {
    const gone = pending.find((m) => m.clientId === clientId);
    if (gone?.previewUrl) URL.revokeObjectURL(gone.previewUrl);
    pending = pending.filter((m) => m.clientId !== clientId);
    emit();
  },
  get(clientId: string): PendingMessage | undefined {
    return pending.find((m) => m.clientId === clientId);
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  snapshot: () => pending,
};

const EMPTY: PendingMessage[] = [];

/** This thread's messages on their way (oldest first). */
export function usePendingMessages(username: string): PendingMessage[] {
  const all = useSyncExternalStore(pendingStore.subscribe, pendingStore.snapshot, () => EMPTY);
  const mine = all.filter((m) => m.username === username);
  return mine.length ? mine : EMPTY;
}
