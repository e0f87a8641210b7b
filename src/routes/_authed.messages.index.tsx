import { createFileRoute } from '@tanstack/react-router';
import { MESSAGE_TEXTS } from '../../common/texts';
import { AuthChecking } from '../features/messages/auth-checking';
import { ChatList } from '../features/messages/chat-list';
import { ChatListSkeleton } from '../features/messages/chat-list-skeleton';
import { chatListOptions } from '../features/messages/messages-queries';
import { useLiveMessages } from '../features/messages/use-live-messages';
import { usePageTitle } from '../lib/page-title';
import { useGateOnSessionLoss, useMe } from '../lib/session';

/**
 * /messages, behind the `_authed` gate (spec part 2 §2): signed out, the path is stored and the
 * visitor goes to /auth; 'Checking authentication...' while the session is checked.
 */
export const Route = createFileRoute('/_authed/messages/')({
  loader: ({ context }) => {
    void context.trpcUtils.messages.chatList.prefetchInfinite({}, chatListOptions);
  },
  pendingComponent: MessagesPending,
  component: MessagesPage,
});

function MessagesPending() {
  return (
    <AuthChecking>
      <ChatListSkeleton />
    </AuthChecking>
  );
}

function MessagesPage() {
  usePageTitle(MESSAGE_TEXTS.heading);
  useGateOnSessionLoss();
  const me = useMe();
  useLiveMessages(me.data?.id ?? null);
  if (!me.data) return <MessagesPending />;
  return <ChatList myId={me.data.id} />;
}
