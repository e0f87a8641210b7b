import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { restoreAnchor, topMessage, type ScrollAnchor } from './scroll-anchor';

/** spec part 2 §9: the thread follows new messages when within 100 px of the bottom */
const NEAR_BOTTOM_PX = 100;

interface ThreadScrollInput {
  loading: boolean;
  /** the oldest message shown: it changes when an older page comes in above the view */
  firstId: string | undefined;
  /** the newest message shown, sent or on its way */
  lastKey: string | undefined;
  /** the newest message is the reader's own: the thread goes to it wherever the reader was */
  lastIsMine: boolean;
  loadOlder: () => Promise<unknown>;
}

/**
 * The thread's place and its paging (spec part 2 §9): it opens at the bottom; older pages load
 * when the top comes into view (`fetchOlder`, for the sentinel), keeping what is on screen where
 * it was; it follows new messages when the reader is within 100 px of the bottom or sent the
 * message, and keeps its place while images and videos take their size.
 */
export function useThreadScroll({ loading, firstId, lastKey, lastIsMine, loadOlder }: ThreadScrollInput) {
  const scroller = useRef<HTMLDivElement>(null);
  const [root, setRoot] = useState<HTMLDivElement | null>(null);
  const nearBottom = useRef(true);
  // the message at the top of the view while the reader is away from the bottom
  const anchor = useRef<ScrollAnchor | null>(null);
  const initialScrollDone = useRef(false);
  // the top sentinel watches only once the thread is scrolled to its end (else it fires at once)
  const [ready, setReady] = useState(false);

  const setScroller = useCallback((node: HTMLDivElement | null) => {
    scroller.current = node;
    setRoot(node);
  }, []);

  // Where the reader is: near the bottom, or which message is at the top of the view.
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM_PX;
    anchor.current = nearBottom.current ? null : topMessage(el);
  };

  const scrollToBottom = () => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
    nearBottom.current = true;
  };

  // After something changed size or came in above: back to the bottom if the reader was there,
  // else the top message back where it was (before paint: from a layout effect or a ResizeObserver).
  const keepPlace = () => {
    const el = scroller.current;
    if (!el) return;
    if (nearBottom.current) el.scrollTop = el.scrollHeight;
    else if (anchor.current) restoreAnchor(el, anchor.current);
  };

  const fetchOlder = useCallback(() => {
    if (!scroller.current || !initialScrollDone.current) return Promise.resolve();
    return loadOlder();
  }, [loadOlder]);

  // an older page (or the first message's removal) changes what is above the view
  useLayoutEffect(keepPlace, [firstId]);

  useLayoutEffect(() => {
    if (loading || !lastKey) return;
    if (!initialScrollDone.current) {
      initialScrollDone.current = true;
      scrollToBottom();
      setReady(true);
      return;
    }
    if (nearBottom.current || lastIsMine) scrollToBottom();
  }, [lastKey, loading, lastIsMine]);

  // Images and videos change the height as they load: stay at the bottom, or on the top message.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(keepPlace);
    const content = el.firstElementChild;
    if (content) observer.observe(content);
    return () => observer.disconnect();
  }, [loading]);

  return { scroller, setScroller, root, onScroll, ready, fetchOlder };
}
