/**
 * What a viewer can be entitled to, named the same on the server and in the browser: a creator's
 * subscription (their premium media and their 'friends' profile) or the platform's Premium.
 * Unlocking a single post later adds `{ kind: 'post'; postId: string; creatorId: string }` here
 * (and a `posts` set to the server's `Entitlements`, domain/access/access.ts): an addition.
 */
export type EntitlementSubject = { kind: 'creator'; creatorId: string } | { kind: 'premium' } | { kind: 'message'; messageId: string };

/** The subject of a subscription's entitlement: to a creator, or (no creator) the platform's Premium. */
export function subscriptionEntitlement(creatorId: string | null): EntitlementSubject {
  return creatorId === null ? { kind: 'premium' } : { kind: 'creator', creatorId };
}
