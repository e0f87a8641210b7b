import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { MediaKind } from '../../../common/enums';
import type { Post, PostPage } from '../../lib/post-cache';
import type { CurrentUser } from '../../lib/trpc';

/**
 * The spec's optimistic post (part 1 §4, part 2 §3): a post the creator published from this tab
 * whose file is on the server and being processed. It shows at the front of the home feed as a
 * 'Publishing' / 'Processing...' card until `post:published` with its optimisticId arrives (then
 * the real post takes its place), `post:failed` removes it, or a timeout check finds it done.
 *
 * The card lives in the feed's own cache (`posts.feed`, page 1, first), as a Post whose id is
 * `optimistic-<optimisticId>` and whose status is 'processing'; the home route renders such a
 * post with `OptimisticPostCard`. A feed refetch (every visit to /) would drop it, so it is put
 * back after each fetch while it is pending.
 */
export interface PendingPost {
  optimisticId: string;
  /** the post the upload became (the `Upload-Post-Id` of its last response) */
  postId: string | null;
  filename: string;
  mediaKind: MediaKind;
  text: string | null;
  hashtags: string[];
  isPremium: boolean;
  isNsfw: boolean;
  /** an object URL of the picked image, for the card; revoked once the post settles */
  previewUrl: string | null;
  createdAt: Date;
  creator: Pick<CurrentUser, 'id' | 'username' | 'displayName' | 'avatarUrl' | 'isVerified' | 'isPremium'>;
}

export const OPTIMISTIC_ID_PREFIX = 'optimistic-';
const FEED_KEY: QueryKey = [['posts', 'feed']];

const pending = new Map<string, PendingPost>();
/** processing progress (0-100) by post id, from `post:progress` */
const progress = new Map<string, number>();
/** optimisticIds already settled: a repeated event does nothing */
const settled = new Set<string>();

let pendingSnapshot: readonly PendingPost[] = [];
let progressSnapshot: ReadonlyMap<string, number> = new Map();
const listeners = new Set<() => void>();

function emit() {
  pendingSnapshot = [...pending.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  progressSnapshot = new Map(progress);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePendingPosts(): readonly PendingPost[] {
  return useSyncExternalStore(subscribe, () => pendingSnapshot);
}

/** Processing progress (0-100) of a post, when the worker reported any. */
export function useProcessingProgress(postId: string | null | undefined): number | null {
  const map = useSyncExternalStore(subscribe, () => progressSnapshot);
  return postId ? (map.get(postId) ?? null) : null;
}

export function findPending(optimisticId: string | null | undefined): PendingPost | null {
  return optimisticId ? (pending.get(optimisticId) ?? null) : null;
}

export function isSettled(optimisticId: string): boolean {
  return settled.has(optimisticId);
}

export function setProcessingProgress(postId: string, percent: number): void {
  if (progress.get(postId) === percent) return;
  progress.set(postId, Math.max(0, Math.min(100, Math.round(percent))));
  emit();
}

// ---- the optimistic card in the feed cache ------------------------------------------------------

export function isOptimisticPost(post: Pick<Post, 'id'>): boolean {
  return post.id.startsWith(OPTIMISTIC_ID_PREFIX);
}

export function optimisticIdOf(post: Pick<Post, 'id'>): string | null {
  return isOptimisticPost(post) ? post.id.slice(OPTIMISTIC_ID_PREFIX.length) : null;
}

function toOptimisticPost(p: PendingPost): Post {
  return {
    id: `${OPTIMISTIC_ID_PREFIX}${p.optimisticId}`,
    title: null,
    text: p.text,
    hashtags: p.hashtags,
    isPremium: p.isPremium,
    isNsfw: p.isNsfw,
    status: 'processing',
    createdAt: p.createdAt,
    mediaKind: p.mediaKind,
    creator: {
      id: p.creator.id,
      username: p.creator.username,
      displayName: p.creator.displayName,
      avatarUrl: p.creator.avatarUrl,
      isVerified: p.creator.isVerified,
      isPremium: p.creator.isPremium,
    },
    counts: { likes: 0, comments: 0, bookmarks: 0 },
    viewer: { liked: false, bookmarked: false, isOwner: true, canViewMedia: true },
    media: null,
  };
}

function isPostPages(data: unknown): data is InfiniteData<PostPage> {
  return typeof data === 'object' && data !== null && Array.isArray((data as InfiniteData<PostPage>).pages);
}

/** Puts every pending post at the front of one cached feed that lacks it (and lacks the real post). */
function withPending(data: InfiniteData<PostPage>): InfiniteData<PostPage> {
  const first = data.pages[0];
  if (!first || pending.size === 0) return data;
  const present = new Set(data.pages.flatMap((page) => page.items.map((post) => post.id)));
  const missing = pendingSnapshot.filter((p) => !present.has(`${OPTIMISTIC_ID_PREFIX}${p.optimisticId}`) && !(p.postId && present.has(p.postId)));
  if (missing.length === 0) return data;
  return { ...data, pages: [{ ...first, items: [...missing.map(toOptimisticPost), ...first.items] }, ...data.pages.slice(1)] };
}

function insertIntoFeeds(queryClient: QueryClient) {
  queryClient.setQueriesData<InfiniteData<PostPage>>({ queryKey: FEED_KEY }, (data) => (isPostPages(data) ? withPending(data) : data));
}

/** Replaces (or drops, with `real` null) the optimistic card in every cached feed. */
function replaceInFeeds(queryClient: QueryClient, optimisticId: string, real: Post | null) {
  const fakeId = `${OPTIMISTIC_ID_PREFIX}${optimisticId}`;
  queryClient.setQueriesData<InfiniteData<PostPage>>({ queryKey: FEED_KEY }, (data) => {
    if (!isPostPages(data) || !data.pages.some((page) => page.items.some((post) => post.id === fakeId))) return data;
    const hasReal = real !== null && data.pages.some((page) => page.items.some((post) => post.id === real.id));
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        items: page.items.flatMap((post) => (post.id !== fakeId ? [post] : real && !hasReal ? [real] : [])),
      })),
    };
  });
}

let watchedClient: QueryClient | null = null;

/** After every fetch of a feed, the pending cards go back to its front (a refetch replaces the pages). */
function watchFeeds(queryClient: QueryClient) {
  if (watchedClient === queryClient) return;
  watchedClient = queryClient;
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || pending.size === 0) return;
    const [path] = event.query.queryKey as [unknown];
    if (!Array.isArray(path) || path[0] !== 'posts' || path[1] !== 'feed') return;
    const data = event.query.state.data;
    if (!isPostPages(data)) return;
    const next = withPending(data);
    if (next !== data) queueMicrotask(() => queryClient.setQueryData(event.query.queryKey, (current: unknown) => (isPostPages(current) ? withPending(current) : current)));
  });
}

// ---- lifecycle ------------------------------------------------------------------------------

/** A published upload reached the server: its card goes to the front of the feed. */
export function addPendingPost(queryClient: QueryClient, post: PendingPost): void {
  watchFeeds(queryClient);
  pending.set(post.optimisticId, post);
  emit();
  insertIntoFeeds(queryClient);
}

function forget(optimisticId: string) {
  const entry = pending.get(optimisticId);
  settled.add(optimisticId);
  if (!entry) return null;
  pending.delete(optimisticId);
  if (entry.postId) progress.delete(entry.postId);
  if (entry.previewUrl) {
    // the card may still be on screen for a moment (until the real post replaces it)
    const url = entry.previewUrl;
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
  emit();
  return entry;
}

/**
 * Settles a pending post once (a repeated event finds nothing): it leaves the store at once; its
 * card stays in the feed until `replaceOptimistic` swaps it for the real post.
 */
export function takePending(optimisticId: string): PendingPost | null {
  if (settled.has(optimisticId)) return null;
  return forget(optimisticId);
}

/** The card gives way to the real post, or (`real` null) just goes: a refetch brings the post if it exists. */
export function replaceOptimistic(queryClient: QueryClient, optimisticId: string, real: Post | null): void {
  replaceInFeeds(queryClient, optimisticId, real);
}

/** Pending posts whose upload finished more than `olderThanMs` ago. */
export function pendingOlderThan(olderThanMs: number, now = Date.now()): PendingPost[] {
  return pendingSnapshot.filter((p) => now - p.createdAt.getTime() > olderThanMs);
}
