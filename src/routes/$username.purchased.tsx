import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { PurchaseFilter } from '../../common/purchase-schemas';
import { readUsernameSegment } from '../../common/username-segment';
import { buttonClasses } from '../components/ui/button';
import { ProfileMessage } from '../features/profiles/profile-states';
import { PurchasesPage } from '../features/purchases/purchases-page';
import { useMe } from '../lib/session';

/**
 * /{username}/purchased (issue 47 item 8): the fan's own "Purchased" collection, a route of its own
 * (its own chunk: nothing of it is in the landing page's script). Only the owner sees it: anyone
 * else, signed in or not, is told so (the server lists the caller's own purchases whatever the URL).
 */
export const Route = createFileRoute('/$username/purchased')({
  component: PurchasedRoute,
});

function PurchasedRoute() {
  const params = Route.useParams();
  const [filter, setFilter] = useState<PurchaseFilter>('all');
  const me = useMe();
  const { username } = readUsernameSegment(params.username);
  const own = !!me.data && !!username && me.data.username.toLowerCase() === username.toLowerCase();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pt-6 pb-10 md:px-6 md:pt-8">
      {me.isPending ? null : own ? (
        <PurchasesPage filter={filter} onFilter={setFilter} />
      ) : (
        <ProfileMessage title="Purchases are private" description="Only the fan who bought them sees their purchases." />
      )}
      {own ? null : me.data ? (
        <div className="mt-4 flex justify-center">
          <Link to="/$username/purchased" params={{ username: me.data.username }} className={buttonClasses({ variant: 'secondary' })}>
            See your purchases
          </Link>
        </div>
      ) : null}
    </div>
  );
}
