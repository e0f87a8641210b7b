import type { ImageSources } from './image-sources';
import { LIMITS } from './limits';
import type { PostDto } from './post-dtos';
import type { ProfileDto } from './profile-dtos';
import type { ProfileContentKind } from './profile-schemas';

/**
 * A page's first data is what its route's loaders load (src/routes): in the browser they start
 * their queries and the page paints its skeleton at once; on the server (src/entry-server.tsx)
 * the same loaders run through an in-process tRPC client with the request's own context, the
 * server waits for every query they started, and puts the answers into the page's HTML. What the
 * server makes of the page beyond its queries (its link preview, the picture to preload, whether
 * it is not found or rendered on the server) a loader says with `context.serverPage` (`PageFound`).
 */

/** What a page's link preview shows (server/http/page-html.ts writes its tags; only ever for an anonymous visitor). */
export type PagePreview = { kind: 'site' } | { kind: 'profile'; profile: ProfileDto } | { kind: 'post'; post: PostDto };

/** What a route's loader found for the server's HTML of its page. */
export interface PageFound {
  /**
   * Who the page is rendered for on the server (its markup in the HTML, hydrated by the browser):
   * 'visitors' (no session), or 'everyone'. Absent: the browser renders it, from the first data.
   */
  render?: 'visitors' | 'everyone';
  preview?: PagePreview;
  /** the picture likely to be the page's largest paint, preloaded from the head */
  leadImage?: ImageSources | null;
}

/**
 * `context.serverPage` of a route's loader, set only on the server: it runs `find` and waits for it (a
 * loader returns what it gives). An error of `find` whose code is NOT_FOUND or BAD_REQUEST (an
 * unknown, private or hidden profile, a draft, a malformed id) makes the page 'not found': 404,
 * nothing of it in the HTML. In the browser `context.serverPage` is undefined and `find` never runs.
 */
export type ServerPage = (find: () => Promise<PageFound>) => Promise<void>;

/**
 * One procedure call of a page's loaders, answered in the server's process with the request's
 * own context (server/http/first-data.ts): tRPC's answer envelope, the data as the procedure
 * returned it (no transformer: nothing is serialised in between), or the error's shape as the
 * app's error formatter makes it for /trpc.
 */
export type ProcedureCall = (op: { type: 'query' | 'mutation' | 'subscription'; path: string; input: unknown }) => Promise<{ result: { data: unknown } } | { error: unknown }>;

/** What the server gives the page renderer (src/entry-server.tsx) for one request. */
export interface PageRequest {
  /** the page's path and query, e.g. `/ava?x=1` */
  url: string;
  origin: string;
  /** put on the router's inline hydration scripts (a placeholder the response's CSP nonce replaces) */
  nonce: string;
  call: ProcedureCall;
}

/** A page whose loaders are running on the server. */
export interface OpenedPage {
  /** the ids of the routes the path matched that load on the server (`ssr: true`), known at once: the chunks its HTML preloads */
  routeIds: string[];
  /** the loaders' outcome, once every query they started has answered */
  loaded: Promise<LoadedPage>;
}

export interface LoadedPage {
  /** React Query's dehydrated cache (successful queries only), serialised by superjson, as JSON text */
  state: string;
  /** a loader's `context.serverPage` found its entity missing (or not to be seen): 404 */
  notFound: boolean;
  found: PageFound;
  /** the page's markup with the router's hydration scripts; null when it must be left to the browser */
  render(): Promise<string | null>;
  /** frees the request's router and query cache */
  close(): void;
}

/** What src/entry-server.tsx exports (the build's <dist>/.ssr/entry-server.js). */
export interface PageRendererModule {
  openPage(request: PageRequest): OpenedPage;
}

/** The inputs of the queries a public page starts with: one input, one cache entry, in both processes. */

/** The home feed's input: the spec's page of 5; the cursor is added by the infinite query. */
export const FEED_INPUT = { limit: LIMITS.feedPageSize } as const;

/** The Content tab's input: 5 per page, all posts or only images and videos, optionally searched. */
export function profilePostsInput(username: string, kind: ProfileContentKind, q: string | undefined) {
  return { username, kind, q: q || undefined, limit: LIMITS.profileFeedPageSize };
}

/** The id of the `<script type="application/json">` carrying the dehydrated query cache (superjson). */
export const FIRST_DATA_ELEMENT_ID = 'first-data';
