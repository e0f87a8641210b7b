/**
 * What a viewer can be entitled to, named the same on the server and in the browser: a creator's
 * subscription (their premium media and their 'friends' profile) or the platform's Premium.
 * A bought pay-per-view post is `{ kind: 'post' }` (the server's `Entitlements.posts`,
 * domain/access/access.ts): the pages holding that creator's posts refetch.
 */
export type EntitlementSubject =
  | { kind: 'creator'; creatorId: string }
  | { kind: 'premium' }
  | { kind: 'post'; postId: string; creatorId: string }
  | { kind: 'message'; messageId: string };

/** The subject of a subscription's entitlement: to a creator, or (no creator) the platform's Premium. */
export function subscriptionEntitlement(creatorId: string | null): EntitlementSubject {
  return creatorId === null ? { kind: 'premium' } : { kind: 'creator', creatorId };
}
