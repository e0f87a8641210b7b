import { LIMITS } from './limits';
import type { ProfileContentKind } from './profile-schemas';

/**
 * The inputs of the queries a public page starts with, shared by the SPA's loaders and the server
 * that puts those queries' answers into the page's HTML (server/http/first-data.ts): one input,
 * one cache entry, so the client finds the server's answer under the key it asks for.
 */

/** The home feed's input: the spec's page of 5; the cursor is added by the infinite query. */
export const FEED_INPUT = { limit: LIMITS.feedPageSize } as const;

/** The Content tab's input: 5 per page, all posts or only images and videos, optionally searched. */
export function profilePostsInput(username: string, kind: ProfileContentKind, q: string | undefined) {
  return { username, kind, q: q || undefined, limit: LIMITS.profileFeedPageSize };
}

/** The id of the `<script type="application/json">` carrying the dehydrated query cache (superjson). */
export const FIRST_DATA_ELEMENT_ID = 'first-data';
