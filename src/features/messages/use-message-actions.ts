import { useCallback, useRef } from 'react';
import { trpc } from '../../lib/trpc';
import { useMessageEdits } from './use-message-edits';
import { usePendingSend } from './use-pending-send';

/**
 * Everything a thread does to messages, each with the spec's words on failure (part 2 §8) and
 * its cache patched from the answer (no refetch).
 */
export function useMessageActions(username: string, onMessagingRefused: () => void) {
  const utils = trpc.useUtils();
  const { send, retry, discard } = usePendingSend(username, onMessagingRefused);
  const { edit, remove, react, markSeen } = useMessageEdits();

  // at most one typing signal every 3 s while typing (the server's expiry is a little longer)
  const lastTyping = useRef(0);
  const typing = useCallback(() => {
    const now = Date.now();
    if (now - lastTyping.current < 3_000) return;
    lastTyping.current = now;
    utils.client.messages.typing.mutate({ username }).catch(() => undefined);
  }, [utils, username]);

  return { send, retry, discard, edit, remove, react, markSeen, typing };
}
