import { useCallback, useEffect, useRef, type RefObject } from 'react';
import type { MessageDto } from '../../../common/message-dtos';

/** read receipts of messages seen within this window go in one call */
const READ_BATCH_MS = 300;

/**
 * Read receipts (spec part 2 §9): unread messages to me that are on screen (half of each, in the
 * thread's scroller) while the tab is visible; `onSeen` is called once per batch, never twice
 * for a message.
 */
export function useReadReceipts(scroller: RefObject<HTMLDivElement | null>, messages: MessageDto[], myId: string, onSeen: (ids: string[]) => void) {
  const seenBatch = useRef(new Set<string>());
  const sent = useRef(new Set<string>());
  const flushTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onSeenRef = useRef(onSeen);
  onSeenRef.current = onSeen;
  const flush = useCallback(() => {
    flushTimer.current = null;
    if (document.visibilityState !== 'visible') return;
    const ids = [...seenBatch.current].filter((id) => !sent.current.has(id));
    seenBatch.current.clear();
    if (ids.length === 0) return;
    for (const id of ids) sent.current.add(id);
    onSeenRef.current(ids);
  }, []);
  const unreadIds = messages.filter((m) => m.recipientId === myId && !m.readAt).map((m) => m.id);
  const unreadKey = unreadIds.join(',');
  useEffect(() => {
    const el = scroller.current;
    if (!el || !unreadKey) return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = (entry.target as HTMLElement).dataset.messageId;
          if (entry.isIntersecting && id) seenBatch.current.add(id);
        }
        if (seenBatch.current.size && !flushTimer.current) flushTimer.current = setTimeout(flush, READ_BATCH_MS);
      },
      { root: el, threshold: 0.5 },
    );
    for (const id of unreadKey.split(',')) {
      const node = el.querySelector(`[data-message-id="${CSS.escape(id)}"]`);
      if (node) observer.observe(node);
    }
    const onVisible = () => {
      if (document.visibilityState === 'visible') {
        // seen while hidden does not count: look again
        observer.disconnect();
        for (const id of unreadKey.split(',')) {
          const node = el.querySelector(`[data-message-id="${CSS.escape(id)}"]`);
          if (node) observer.observe(node);
        }
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      observer.disconnect();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [unreadKey, flush, scroller]);
  useEffect(() => () => (flushTimer.current ? clearTimeout(flushTimer.current) : undefined), []);
}
