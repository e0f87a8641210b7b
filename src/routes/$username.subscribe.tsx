import { createFileRoute } from '@tanstack/react-router';
import { PROFILE_TEXTS } from '../../common/texts';
import { readUsernameSegment } from '../../common/username-segment';
import { ProfileMessage } from '../features/profiles/profile-states';
import { SubscribePage } from '../features/subscriptions/subscribe-page';
import { enumParam, searchValidator } from '../lib/search-params';

const SubscribeSearch = searchValidator<{ checkout?: 'cancelled' }>({ checkout: enumParam(['cancelled'] as const) });

/**
 * /{username}/subscribe (spec part 1 §2, part 2 §2): public, so a visitor sees the plans and what
 * they unlock; subscribing asks them to sign in and brings them back. `?checkout=cancelled` is
 * where Stripe Checkout returns when the fan turns back.
 */
export const Route = createFileRoute('/$username/subscribe')({
  validateSearch: SubscribeSearch,
  loader: ({ context, params }) => {
    const { username } = readUsernameSegment(params.username);
    if (username) void context.trpcUtils.subscriptions.subscribePage.prefetch({ username });
  },
  component: SubscribeRoute,
});

function SubscribeRoute() {
  const params = Route.useParams();
  const { checkout } = Route.useSearch();
  const { username, error } = readUsernameSegment(params.username);
  return (
    <div className="mx-auto w-full max-w-5xl px-4 pt-6 pb-10 md:px-6 md:pt-8">
      {username ? <SubscribePage key={username} username={username} checkout={checkout} /> : <ProfileMessage title={error ?? PROFILE_TEXTS.usernameRequired} />}
    </div>
  );
}
