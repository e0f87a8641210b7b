import { Fragment } from 'react';
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
import { useQuoteJump } from './use-quote-jump';
import { useReadReceipts } from './use-read-receipts';
import { useThreadScroll } from './use-thread-scroll';

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
  const firstId = messages[0]?.id;
  const lastKey = pending.length ? pending.at(-1)!.clientId : messages.at(-1)?.id;
  const lastIsMine = pending.length > 0 || messages.at(-1)?.senderId === myId;
  const { scroller, setScroller, root, onScroll, ready, fetchOlder } = useThreadScroll({ loading, firstId, lastKey, lastIsMine, loadOlder });
  useReadReceipts(scroller, messages, myId, onSeen);
  const { highlighted, openQuote } = useQuoteJump(scroller, messages, hasOlder, fetchOlder);

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
