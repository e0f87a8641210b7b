import { useCallback, useRef, useState, type ReactNode } from 'react';
import type { MessageDto, MessageReplyDto } from '../../../common/message-dtos';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { useMaySell } from '../../components/verify-to-sell';
import { trpc, type CurrentUser } from '../../lib/trpc';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { MessagingUnavailable } from './messaging-unavailable';
import { usePendingMessages } from './pending-messages';
import { ReportDialog } from './report-dialog';
import { ThreadHeader } from './thread-header';
import { TipLines } from './tip-lines';
import { useBlockAndReport } from './use-block-and-report';
import { useMessageActions } from './use-message-actions';
import { usePartnerPresence } from './use-partner-presence';
import { usePartnerTyping } from './use-partner-typing';
import { useThreadMessages } from './use-thread-messages';
import { useThreadPartner } from './use-thread-partner';

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
  const utils = trpc.useUtils();
  const { partner, profile, partnerName, partnerId } = useThreadPartner(username);
  const maySell = useMaySell(me.isCreator);
  const { thread, messages } = useThreadMessages(username, !partner.isError);
  const pending = usePendingMessages(username);
  const typing = usePartnerTyping(partnerId);
  usePartnerPresence(username, partnerId, partner.data?.online === null);

  const refreshPartner = useCallback(() => void utils.messages.partner.invalidate({ username }), [utils, username]);
  const actions = useMessageActions(username, refreshPartner);

  const [replyTo, setReplyTo] = useState<MessageReplyDto | null>(null);
  const [editing, setEditing] = useState<MessageDto | null>(null);
  const [deleting, setDeleting] = useState<MessageDto | null>(null);
  const [reporting, setReporting] = useState<MessageDto | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const { block, unblock, report } = useBlockAndReport(username, partnerId, profile?.username ?? username, () => {
    setReplyTo(null);
    setEditing(null);
  });

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
      <TipLines partnerId={partnerId} partnerName={partnerName} />
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
      <ReportDialog
        open={!!reporting}
        onOpenChange={(open) => (open ? undefined : setReporting(null))}
        onSubmit={async (reason) => (reporting ? report(reporting.id, reason) : false)}
      />
    </div>
  );
}
