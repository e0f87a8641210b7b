import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { TipReceivedEvent } from '../../../common/socket-events';
import { formatRand } from '../../../common/format';
import { TIP_TEXTS } from '../../../common/tip-texts';
import type { MessageDto, MessageReplyDto, Messaging } from '../../../common/message-dtos';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Button } from '../../components/ui/button';
import { usePageTitle } from '../../lib/page-title';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { useIsRoomJoined, useRoom } from '../../lib/realtime/rooms';
import { notify } from '../../lib/toast';
import { errorCode, trpc, type CurrentUser } from '../../lib/trpc';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { noteSeen, partnerOptions, setOpenThread, threadOptions } from './messages-queries';
import { usePendingMessages } from './pending-messages';
import { ReportDialog } from './report-dialog';
import { threadMessages } from './thread-cache';
import { ThreadHeader } from './thread-header';
import { serverMessage, useMessageActions } from './use-message-actions';
import { useMaySell } from '../../components/verify-to-sell';

const toastError = (description: string) => notify.error({ title: 'Error', description });

const toReply = (m: MessageDto): MessageReplyDto => ({
  id: m.id,
  senderId: m.senderId,
  content: m.content,
  mediaType: m.attachment?.kind ?? null,
  mediaUrl: m.attachment?.url ?? null,
});

/**
 * /messages/{username} (spec part 2 §2): the header, the thread and the composer, filling the
 * screen below the top bar (the bottom bar is hidden here). An unknown or invisible user gives
 * 'User not found' (another failure 'Failed to load user profile') and the way back to /messages.
 */
export function ThreadScreen({
  username,
  me,
  renderTip,
}: {
  username: string;
  me: CurrentUser;
  /** the Tip button (features/subscriptions, given by the route) for the header's partner */
  renderTip?: (partner: { username: string; name: string }) => ReactNode;
}) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const partner = trpc.messages.partner.useQuery({ username }, partnerOptions);
  const maySell = useMaySell(me.isCreator);
  const thread = trpc.messages.thread.useInfiniteQuery({ username }, { ...threadOptions, enabled: !partner.isError });
  const profile = partner.data?.profile;
  const partnerName = profile ? profile.displayName || profile.username : username;
  usePageTitle(profile ? partnerName : MESSAGE_TEXTS.heading);

  // Unknown, hidden or private (the server says no more): the toast, then back to the list.
  useEffect(() => {
    if (!partner.isError) return;
    toastError(errorCode(partner.error) === 'NOT_FOUND' ? MESSAGE_TEXTS.userNotFound : MESSAGE_TEXTS.profileLoadFailed);
    void navigate({ to: '/messages', replace: true });
  }, [partner.isError, partner.error, navigate]);
  useEffect(() => {
    if (thread.isError && errorCode(thread.error) !== 'NOT_FOUND') toastError(MESSAGE_TEXTS.loadFailed);
  }, [thread.isError, thread.error]);

  const partnerId = profile?.id ?? null;
  useEffect(() => {
    setOpenThread({ username, partnerId });
    return () => setOpenThread(null);
  }, [username, partnerId]);

  const messages = useMemo(() => threadMessages(thread.data), [thread.data]);
  useEffect(() => noteSeen(messages), [messages]);
  const pending = usePendingMessages(username);

  // typing…: until its expiry or a message from them
  const [typingUntil, setTypingUntil] = useState(0);
  const [now, setNow] = useState(0);
  useRealtimeEvent('typing', ({ userId, expiresInMs }) => {
    if (userId === partnerId) {
      setNow(Date.now());
      setTypingUntil(Date.now() + expiresInMs);
    }
  });
  useRealtimeEvent('message:new', ({ message }) => {
    if (message.senderId === partnerId) setTypingUntil(0);
  });
  useEffect(() => {
    if (typingUntil <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), typingUntil - Date.now());
    return () => clearTimeout(timer);
  }, [typingUntil, now]);
  const typing = typingUntil > now;

  // tips this fan sends while the chat is open: a line each, above the composer (the creator's toast says it too)
  const [tips, setTips] = useState<TipReceivedEvent[]>([]);
  useRealtimeEvent('tip:received', (tip) => {
    if (tip.fanId === partnerId) setTips((shown) => [...shown, tip]);
  });

  // online dot: the partner's presence room (the server refuses it when they hide their status)
  useRoom('presence', partner.data?.online === null ? null : partnerId);
  useRealtimeEvent('presence', ({ userId, online }) => {
    if (userId !== partnerId) return;
    utils.messages.partner.setData({ username }, (data) => (data && data.online !== null ? { ...data, online } : data));
  });
  // The state read before the room was joined may be stale (the partner came online between
  // the two and that event went to a room we were not in yet): read it again once we are in.
  const presenceJoined = useIsRoomJoined('presence', partnerId ?? '');
  useEffect(() => {
    if (presenceJoined) void utils.messages.partner.invalidate({ username });
  }, [presenceJoined, utils, username]);

  const refreshPartner = useCallback(() => void utils.messages.partner.invalidate({ username }), [utils, username]);
  const actions = useMessageActions(username, refreshPartner);

  const [replyTo, setReplyTo] = useState<MessageReplyDto | null>(null);
  const [editing, setEditing] = useState<MessageDto | null>(null);
  const [deleting, setDeleting] = useState<MessageDto | null>(null);
  const [reporting, setReporting] = useState<MessageDto | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  // a block or unblock, by either of us, changes this thread at once: the composer gives way to
  // the reason (or comes back) and the online dot goes (the server also takes us out of the room)
  useRealtimeEvent('messaging:changed', ({ partnerId: changed, messaging }) => {
    if (changed !== partnerId) return;
    if (messaging === 'available') return void utils.messages.partner.invalidate({ username });
    setReplyTo(null);
    setEditing(null);
    utils.messages.partner.setData({ username }, (data) => (data ? { ...data, messaging, online: null } : data));
  });

  const setMessaging = (messaging: Messaging) =>
    utils.messages.partner.setData({ username }, (data) => (data ? { ...data, messaging } : data));
  const block = async () => {
    try {
      setMessaging((await utils.client.messages.block.mutate({ username })).messaging);
      setReplyTo(null);
      setEditing(null);
      notify.success({ title: `You blocked @${profile?.username ?? username}` });
    } catch (error) {
      toastError(serverMessage(error, MESSAGE_TEXTS.userNotFound));
    }
  };
  const unblock = async () => {
    try {
      setMessaging((await utils.client.messages.unblock.mutate({ username })).messaging);
      notify.success({ title: `You unblocked @${profile?.username ?? username}` });
    } catch (error) {
      toastError(serverMessage(error, MESSAGE_TEXTS.userNotFound));
    }
  };
  const report = async (reason: string) => {
    if (!reporting) return false;
    try {
      await utils.client.messages.report.mutate({ messageId: reporting.id, reason });
      notify.success({ title: 'Report sent', description: 'Thank you. Our team will review this message.' });
      return true;
    } catch (error) {
      toastError(serverMessage(error, MESSAGE_TEXTS.messageNotFound));
      return false;
    }
  };

  const messaging = partner.data?.messaging;
  const canWrite = messaging === 'available';
  const myName = me.displayName || me.username;
  const replyAuthor = replyTo ? (replyTo.senderId === me.id ? 'yourself' : partnerName) : '';

  return (
    <div ref={listRef} className="fixed inset-x-0 top-16 bottom-0 z-30 flex flex-col bg-canvas">
      <ThreadHeader
        partner={partner.data}
        typing={typing && canWrite}
        onBlock={block}
        onUnblock={unblock}
        tip={profile && renderTip ? renderTip({ username: profile.username, name: partnerName }) : null}
      />
      <MessageList
        myId={me.id}
        myName={myName}
        partnerName={partnerName}
        messages={messages}
        pending={pending}
        loading={!thread.data && !thread.isError}
        failed={thread.isError}
        onRetryLoad={() => void thread.refetch()}
        hasOlder={thread.hasNextPage}
        loadingOlder={thread.isFetchingNextPage}
        loadOlder={thread.fetchNextPage}
        canWrite={canWrite}
        actions={{
          onReply: (m) => {
            setEditing(null);
            setReplyTo(toReply(m));
          },
          onEdit: (m) => {
            setReplyTo(null);
            setEditing(m);
          },
          onDelete: setDeleting,
          onReport: setReporting,
          onReact: (m, emoji) => void actions.react(m, emoji),
        }}
        onRetrySend={actions.retry}
        onDiscard={actions.discard}
        onSeen={(ids) => void actions.markSeen(ids)}
      />
      {tips.length > 0 ? (
        <ul aria-live="polite" className="flex flex-col gap-1 border-t border-border px-4 py-2">
          {tips.map((tip) => (
            <li key={tip.tipId} data-testid="tip-line" className="self-center rounded-full bg-violet-500/15 px-3 py-1 text-center text-xs text-violet-100 ring-1 ring-violet-400/30">
              {TIP_TEXTS.received(partnerName, formatRand(tip.amount))}
              {tip.message ? <span className="text-violet-200/80"> — “{tip.message}”</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {!partner.data ? null : canWrite ? (
        <Composer
          key={username}
          replyTo={replyTo}
          replyAuthor={replyAuthor}
          onCancelReply={() => setReplyTo(null)}
          editing={editing}
          onCancelEdit={() => setEditing(null)}
          canSetPrice={me.isCreator}
          priceBlocked={maySell === false}
          onSend={({ content, file, price, attachment }) => {
            actions.send({ content, file, replyTo, price, attachment });
            setReplyTo(null);
          }}
          onSaveEdit={(message, content) => actions.edit(message.id, content)}
          onTyping={actions.typing}
        />
      ) : (
        <MessagingUnavailable messaging={messaging!} onUnblock={unblock} />
      )}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title="Delete this message?"
        description="It will be removed from the conversation for both of you."
        confirmLabel="Delete message"
        onConfirm={async () => {
          if (deleting) await actions.remove(deleting.id);
          if (editing?.id === deleting?.id) setEditing(null);
        }}
      />
      <ReportDialog open={!!reporting} onOpenChange={(open) => (open ? undefined : setReporting(null))} onSubmit={report} />
    </div>
  );
}

/** In place of the composer when this conversation cannot take new messages (issue 12 §6). */
function MessagingUnavailable({ messaging, onUnblock }: { messaging: Messaging; onUnblock: () => Promise<void> }) {
  return (
    <div data-testid="messaging-unavailable" className="flex flex-col items-center gap-2 border-t border-border bg-surface px-4 py-4 text-center text-sm text-muted sm:flex-row sm:justify-center">
      {messaging === 'blocked-by-you' ? (
        <>
          <span>You blocked this user. Unblock them to send messages.</span>
          <Button size="sm" variant="secondary" onClick={() => void onUnblock()}>
            Unblock
          </Button>
        </>
      ) : (
        <span>Messaging is unavailable in this conversation.</span>
      )}
    </div>
  );
}

