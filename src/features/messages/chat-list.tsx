import { Link } from '@tanstack/react-router';
import { MessageCircle } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import type { ChatPreviewDto } from '../../../common/message-dtos';
import { SENTINEL_VISIBLE_RATIO } from '../../../common/messages';
import { MESSAGE_TEXTS, SHELL_TEXTS } from '../../../common/texts';
import { EmptyState } from '../../components/empty-state';
import { LoadMoreSentinel } from '../../components/load-more-sentinel';
import { Avatar } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { VerifiedBadge } from '../../components/ui/verified-badge';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { MEDIA_LABELS } from './attachment-kind';
import { formatPreviewTime } from './message-format';
import { chatListOptions, noteSeen } from './messages-queries';
import { ChatListSkeleton, ChatRowSkeleton } from './chat-list-skeleton';
import { PremiumMark } from './premium-mark';

/**
 * /messages (spec part 2 §2): 'Messages', one row per partner, newest conversation first, the
 * next page when the sentinel is 10% visible; 'No messages yet'; skeletons while the first page
 * loads. Live events (use-live-messages.ts) keep it current.
 */
export function ChatList({ myId }: { myId: string }) {
  const chats = trpc.messages.chatList.useInfiniteQuery({}, chatListOptions);
  const rows = useMemo(() => chats.data?.pages.flatMap((p) => p.chats) ?? [], [chats.data]);

  useEffect(() => {
    if (chats.isError) notify.error({ title: 'Error', description: MESSAGE_TEXTS.chatListFailed }, { id: 'chat-list-failed' });
  }, [chats.isError]);
  useEffect(() => {
    noteSeen(rows.flatMap((r) => (r.lastMessage ? [r.lastMessage] : [])));
  }, [rows]);

  let body;
  if (!chats.data) {
    body = chats.isError ? (
      <div className="flex flex-col items-center gap-4 rounded-card border border-border bg-surface px-6 py-12 text-center">
        <p className="text-muted">{MESSAGE_TEXTS.chatListFailed}</p>
        <Button variant="secondary" onClick={() => void chats.refetch()}>
          {SHELL_TEXTS.tryAgain}
        </Button>
      </div>
    ) : (
      <ChatListSkeleton />
    );
  } else if (rows.length === 0) {
    body = <EmptyState icon={MessageCircle}>{MESSAGE_TEXTS.empty}</EmptyState>;
  } else {
    body = (
      <>
        <ul aria-label="Conversations" className="flex flex-col overflow-hidden rounded-card border border-border bg-surface">
          {rows.map((chat) => (
            <li key={chat.partner.id} className="border-b border-border last:border-b-0">
              <ChatRow chat={chat} myId={myId} />
            </li>
          ))}
        </ul>
        {chats.isFetchingNextPage ? <ChatRowSkeleton /> : null}
        <LoadMoreSentinel
          enabled={chats.hasNextPage && !chats.isFetchingNextPage}
          onVisible={() => void chats.fetchNextPage()}
          itemCount={rows.length}
          testId="chat-list-sentinel"
          visibleRatio={SENTINEL_VISIBLE_RATIO}
          end={!chats.hasNextPage}
        />
      </>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-5 px-4 pt-6 pb-10 md:px-6 md:pt-10">
      <h1 className="text-3xl font-bold tracking-tight">{MESSAGE_TEXTS.heading}</h1>
      {body}
    </div>
  );
}

function lastMessageText(chat: ChatPreviewDto, myId: string): string {
  const last = chat.lastMessage;
  if (!last) return '';
  const text = last.content?.trim() || (last.mediaType ? MEDIA_LABELS[last.mediaType] : '');
  return last.senderId === myId ? `You: ${text}` : text;
}

function ChatRow({ chat, myId }: { chat: ChatPreviewDto; myId: string }) {
  const { partner, lastMessage, unreadCount } = chat;
  const name = partner.displayName || partner.username;
  const unread = unreadCount > 0;
  return (
    <Link
      to="/messages/$username"
      params={{ username: partner.username }}
      data-testid="chat-row"
      className="flex items-center gap-3 px-4 py-3.5 transition-colors hover:bg-surface-hover focus-visible:bg-surface-hover focus-visible:outline-offset-[-2px]"
    >
      <Avatar src={partner.avatarUrl} name={name} size="lg" ring={false} />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <div className="flex items-center gap-2">
          <span className={cn('truncate', unread ? 'font-bold' : 'font-semibold')}>{name}</span>
          {partner.isVerified ? <VerifiedBadge /> : null}
          {partner.isPremium ? <PremiumMark /> : null}
          {lastMessage ? (
            <time dateTime={lastMessage.createdAt} data-testid="chat-time" className="ml-auto shrink-0 text-xs text-subtle">
              {formatPreviewTime(lastMessage.createdAt)}
            </time>
          ) : null}
        </div>
        <div className="flex items-center gap-2">
          <span className="text-sm text-subtle">@{partner.username}</span>
        </div>
        <div className="flex items-center gap-2">
          <p data-testid="chat-preview" className={cn('min-w-0 flex-1 truncate text-sm', unread ? 'text-foreground' : 'text-muted')}>
            {lastMessageText(chat, myId)}
          </p>
          {unread ? (
            <span
              data-testid="chat-unread"
              className="inline-flex min-w-5 shrink-0 items-center justify-center rounded-full bg-pink px-1.5 text-[11px] font-bold leading-5 text-white"
            >
              {unreadCount > 99 ? '99+' : unreadCount}
              <span className="sr-only"> unread</span>
            </span>
          ) : null}
        </div>
      </div>
    </Link>
  );
}
