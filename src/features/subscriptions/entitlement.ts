import type { Query, QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import type { EntitlementSubject } from '../../../common/entitlements';
import { POST_LISTS, type Post } from '../../lib/post-cache';
import { trpc } from '../../lib/trpc';

/**
 * What the viewer may see changed (issue 11 item 4): an entitlement (common/entitlements.ts)
 * started or ended. Posts carry `viewer.canViewMedia` and their media addresses from the server,
 * so the cached copies of that creator's posts are refetched, not patched: the server's one access
 * rule decides again. Only queries that hold the creator's posts or profile are touched (open ones
 * refetch at once, the others when next shown), never every list. Premium changes the user
 * themself: their own profile (upgrade card, links, verified badge), auth.me (isPremium), and
 * the badge on their own posts in cached lists (issue 22 item 8).
 */
const POST_LIST_KEYS = Object.values(POST_LISTS).map((list) => getQueryKey(list));
const POST_KEY = getQueryKey(trpc.posts.byId);
const PROFILE_KEY = getQueryKey(trpc.profiles.byUsername);

function startsWith(key: readonly unknown[], prefix: readonly unknown[]): boolean {
  return JSON.stringify(key[0]) === JSON.stringify(prefix[0]);
}

function isByCreator(post: unknown, creatorId: string): boolean {
  return (post as Post | undefined)?.creator?.id === creatorId;
}

/** Whether a cached query holds a post or the profile of this creator (exported for its unit test). */
export function holdsCreator(query: Query, creatorId: string): boolean {
  const key = query.queryKey;
  const data = query.state.data as unknown;
  if (POST_LIST_KEYS.some((prefix) => startsWith(key, prefix))) {
    const pages = (data as { pages?: { items?: unknown[] }[] } | undefined)?.pages ?? [];
    return pages.some((page) => (page.items ?? []).some((post) => isByCreator(post, creatorId)));
  }
  if (startsWith(key, POST_KEY)) return isByCreator(data, creatorId);
  if (startsWith(key, PROFILE_KEY)) return (data as { id?: string } | undefined)?.id === creatorId;
  return false;
}

export async function refreshEntitlements(queryClient: QueryClient, utils: ReturnType<typeof trpc.useUtils>, subject: EntitlementSubject): Promise<void> {
  const billing = [utils.subscriptions.subscribePage.invalidate(), utils.subscriptions.mine.invalidate(), utils.payments.history.invalidate()];
  // a pay-per-view message: its thread hears `message:updated` (bought here), or refetches (bought on Stripe's page: the webhook says so)
  if (subject.kind === 'message') {
    await Promise.all([...billing, utils.messages.thread.invalidate()]);
    return;
  }
  if (subject.kind === 'premium') {
    const me = utils.auth.me.getData();
    await Promise.all([
      ...billing,
      utils.auth.me.invalidate(),
      utils.profiles.byUsername.invalidate(),
      utils.subscriptions.premiumTier.invalidate(),
      me
        ? queryClient.invalidateQueries({
            predicate: (query) => holdsCreator(query, me.id),
          })
        : null,
    ]);
    return;
  }
  await Promise.all([
    ...billing,
    queryClient.invalidateQueries({
      predicate: (query) => holdsCreator(query, subject.creatorId),
    }),
  ]);
}
