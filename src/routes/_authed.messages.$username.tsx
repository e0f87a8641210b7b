import { createFileRoute } from '@tanstack/react-router';
import { AuthChecking } from '../features/messages/auth-checking';
import { partnerOptions, threadOptions, threadUsername } from '../features/messages/messages-queries';
import { ThreadScreen } from '../features/messages/thread-screen';
import { useLiveMessages } from '../features/messages/use-live-messages';
import { MessageUnlockButton } from '../features/subscriptions/message-unlock-button';
import { TipButton } from '../features/subscriptions/tip-button';
import { MessageUnlockSlot } from '../features/messages/message-unlock-slot';
import { useGateOnSessionLoss, useMe } from '../lib/session';

/**
 * /messages/{username}, behind the `_authed` gate (spec part 2 §2): a visitor's path is stored
 * and they go to /auth; 'Checking authentication...' while the session is checked.
 */
export const Route = createFileRoute('/_authed/messages/$username')({
  loader: ({ context, params }) => {
    const username = threadUsername(params.username);
    if (!username) return;
    void context.trpcUtils.messages.partner.prefetch({ username }, partnerOptions);
    void context.trpcUtils.messages.thread.prefetchInfinite({ username }, threadOptions);
  },
  pendingComponent: () => <AuthChecking />,
  component: ThreadRoute,
});

function ThreadRoute() {
  const { username: raw } = Route.useParams();
  const username = threadUsername(raw);
  useGateOnSessionLoss();
  const me = useMe();
  useLiveMessages(me.data?.id ?? null);
  if (!me.data) return <AuthChecking />;
  return (
    <MessageUnlockSlot.Provider value={MessageUnlockButton}>
      <ThreadScreen key={username} username={username} me={me.data} renderTip={renderTip} />
    </MessageUnlockSlot.Provider>
  );
}

function renderTip(partner: { username: string; name: string }) {
  // on a phone the icon alone (its name stays 'Tip {name}'): the header keeps room for the partner's name
  return <TipButton target={partner} label="Tip" variant="ghost" size="sm" className="shrink-0 max-sm:gap-0 max-sm:px-2 max-sm:text-[0px]" />;
}
