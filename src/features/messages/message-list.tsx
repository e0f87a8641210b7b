import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { MessageDto } from '../../../common/message-dtos';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { SENTINEL_VISIBLE_RATIO } from '../../../common/messages';
import { LoadMoreSentinel } from '../../components/load-more-sentinel';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { MessageBubble, PendingBubble, type BubbleActions } from './message-bubble';
import { formatDayLabel, isSameDay } from './message-format';
import type { PendingMessage } from './pending-messages';
import { restoreAnchor, topMessage, type ScrollAnchor } from './scroll-anchor';

/** spec part 2 §9: the thread follows new messages when within 100 px of the bottom */
const NEAR_BOTTOM_PX = 100;
/** spec part 2 §9: a reply's target is highlighted for 2 seconds */
const HIGHLIGHT_MS = 2_000;
/** read receipts of messages seen within this window go in one call */
const READ_BATCH_MS = 300;

interface MessageListProps {
  myId: string;
  myName: string;
  partnerName: string;
  messages: MessageDto[];
  pending: PendingMessage[];
  loading: boolean;
  failed: boolean;
  onRetryLoad: () => void;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => Promise<unknown>;
  actions: Omit<BubbleActions, 'onOpenQuote'>;
  canWrite: boolean;
  onRetrySend: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
  /** messages to me, seen on screen, not read yet: one call per batch */
  onSeen: (ids: string[]) => void;
}

/**
 * The thread (spec part 2 §2, §9): oldest first; older pages load when the top comes into view,
 * keeping what is on screen where it was; it follows new messages when the reader is within
 * 100 px of the bottom or sent the message; a quoted message is scrolled to and highlighted for
 * 2 s; messages to me are marked read when they are on screen while the tab is visible.
 */
export function MessageList({
  myId,
  myName,
  partnerName,
  messages,
  pending,
  loading,
  failed,
  onRetryLoad,
  hasOlder,
  loadingOlder,
  loadOlder,
  actions,
  canWrite,
  onRetrySend,
  onDiscard,
  onSeen,
}: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [root, setRoot] = useState<HTMLDivElement | null>(null);
  const nearBottom = useRef(true);
  // the message at the top of the view while the reader is away from the bottom
  const anchor = useRef<ScrollAnchor | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
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

  const firstId = messages[0]?.id;
  const lastKey = pending.length ? pending.at(-1)!.clientId : messages.at(-1)?.id;
  const lastIsMine = pending.length > 0 || messages.at(-1)?.senderId === myId;

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

  // Read receipts: unread messages to me that are on screen while the tab is visible.
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
  }, [unreadKey, flush]);
  useEffect(() => () => (flushTimer.current ? clearTimeout(flushTimer.current) : undefined), []);

  // A quote takes the reader to its message (loading older pages until it is there), highlighted 2 s.
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
    [fetchOlder],
  );
  useEffect(() => () => (highlightTimer.current ? clearTimeout(highlightTimer.current) : undefined), []);

  const confirmedClientIds = new Set(messages.map((m) => m.clientId).filter(Boolean));
  const waiting = pending.filter((p) => !confirmedClientIds.has(p.clientId));

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      {/* over the thread, not in it: an element above the messages would push them down */}
      {loadingOlder ? (
        <div role="status" className="absolute top-3 left-1/2 z-10 -translate-x-1/2 rounded-full border border-border bg-surface-raised p-2 shadow-lg">
          <Spinner />
          <span className="sr-only">Loading older messages</span>
        </div>
      ) : null}
      <div
        ref={setScroller}
        onScroll={onScroll}
        data-testid="message-scroller"
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain [overflow-anchor:none]"
      >
        <div className="mx-auto flex min-h-full w-full max-w-3xl flex-col justify-end gap-1 px-3 py-4 md:px-6">
          {loading ? (
            <ThreadSkeleton />
          ) : failed && messages.length === 0 ? (
            <div className="m-auto flex flex-col items-center gap-3 text-center">
              <p className="text-muted">{MESSAGE_TEXTS.loadFailed}</p>
              <Button variant="secondary" onClick={onRetryLoad}>
                Try again
              </Button>
            </div>
          ) : (
            <>
              {hasOlder ? (
                <LoadMoreSentinel
                  enabled={ready && !loadingOlder}
                  onVisible={() => void fetchOlder()}
                  itemCount={messages.length}
                  testId="thread-sentinel"
                  end={false}
                  visibleRatio={SENTINEL_VISIBLE_RATIO}
                  root={root}
                />
              ) : null}
              {messages.length === 0 && waiting.length === 0 ? (
                <p className="m-auto py-10 text-center text-muted">{MESSAGE_TEXTS.empty}</p>
              ) : null}
              <ol aria-label="Messages" className="flex flex-col gap-1">
                {messages.map((message, i) => {
                  const previous = messages[i - 1];
                  const newDay = !previous || !isSameDay(previous.createdAt, message.createdAt);
                  return (
                    <Fragment key={message.id}>
                      {newDay ? (
                        <li aria-hidden="true" className="my-2 self-center rounded-full bg-surface-raised px-3 py-1 text-xs text-subtle">
                          {formatDayLabel(message.createdAt)}
                        </li>
                      ) : null}
                      <li className={cn('flex flex-col', previous && previous.senderId !== message.senderId && 'mt-2')}>
                        <MessageBubble
                          message={message}
                          mine={message.senderId === myId}
                          myName={myName}
                          partnerName={partnerName}
                          highlighted={highlighted === message.id}
                          actions={{ ...actions, onOpenQuote: (id) => void openQuote(id) }}
                          canWrite={canWrite}
                        />
                      </li>
                    </Fragment>
                  );
                })}
                {waiting.map((item) => (
                  <li key={item.clientId} className="flex flex-col">
                    <PendingBubble item={item} onRetry={() => onRetrySend(item.clientId)} onDiscard={() => onDiscard(item.clientId)} />
                  </li>
                ))}
              </ol>
            </>
          )}
        </div>
      </div>
    </div>
  );
}

function ThreadSkeleton() {
  return (
    <div aria-busy="true" data-testid="thread-skeleton" className="flex flex-col gap-3">
      <span className="sr-only" role="status">
        Loading messages
      </span>
      {[48, 36, 60, 30, 52, 40].map((w, i) => (
        <Skeleton key={i} className={cn('h-11 rounded-2xl', i % 2 ? 'ml-auto' : '')} style={{ width: `${w}%` }} />
      ))}
    </div>
  );
}
