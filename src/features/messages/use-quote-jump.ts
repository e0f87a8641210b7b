import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { MessageDto } from '../../../common/message-dtos';

/** spec part 2 §9: a reply's target is highlighted for 2 seconds */
const HIGHLIGHT_MS = 2_000;

/**
 * A quote takes the reader to its message (loading older pages until it is there, ten at the
 * most), scrolled to the middle and highlighted for 2 s.
 */
export function useQuoteJump(scroller: RefObject<HTMLDivElement | null>, messages: MessageDto[], hasOlder: boolean, fetchOlder: () => Promise<unknown>) {
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const highlightTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const hasOlderRef = useRef(hasOlder);
  hasOlderRef.current = hasOlder;
  const openQuote = useCallback(
    async (id: string) => {
      for (let i = 0; i < 10 && !messagesRef.current.some((m) => m.id === id) && hasOlderRef.current; i++) {
        await fetchOlder();
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      const node = scroller.current?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(id)}"]`);
      if (!node) return;
      node.scrollIntoView({ block: 'center', behavior: 'smooth' });
      setHighlighted(id);
      if (highlightTimer.current) clearTimeout(highlightTimer.current);
      highlightTimer.current = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    },
    [fetchOlder, scroller],
  );
  useEffect(() => () => (highlightTimer.current ? clearTimeout(highlightTimer.current) : undefined), []);
  return { highlighted, openQuote };
}
