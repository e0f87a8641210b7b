import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { RouterOutputs } from './trpc';

/**
 * Posts live in several react-query caches at once: every feed page (`posts.feed`), the bookmark
 * pages (`bookmarks.list`), the single post (`posts.byId`) and its comments (`comments.list`).
 * Optimistic updates and live socket events change a post through these helpers, so every
 * screen that shows it agrees. tRPC keys look like [['posts', 'feed'], { input, type }].
 */
export type Post = RouterOutputs['posts']['byId'];
export type PostPage = RouterOutputs['posts']['feed'];
export type Comment = RouterOutputs['comments']['list'][number];
export type PostCounts = Post['counts'];

/**
 * Lists of post cards, all with the feed's page shape: the home feed, the bookmark pages, a
 * profile's Content tab and its owner's drafts, and Explore's grid.
 */
const POST_LIST_KEYS: QueryKey[] = [
  [['posts', 'feed']],
  [['bookmarks', 'list']],
  [['profiles', 'posts']],
  [['profiles', 'drafts']],
  [['explore', 'search']],
];
const POST_KEY: QueryKey = [['posts', 'byId']];
const COMMENTS_KEY: QueryKey = [['comments', 'list']];

function isPostPages(data: unknown): data is InfiniteData<PostPage> {
  return typeof data === 'object' && data !== null && Array.isArray((data as InfiniteData<PostPage>).pages);
}

function mapPages(data: InfiniteData<PostPage>, fn: (items: Post[]) => Post[]): InfiniteData<PostPage> {
  let changed = false;
  const pages = data.pages.map((page) => {
    const items = fn(page.items);
    if (items === page.items) return page;
    changed = true;
    return { ...page, items };
  });
  return changed ? { ...data, pages } : data;
}

/** Applies `update` to the post with this id wherever it is cached. */
export function updatePost(queryClient: QueryClient, postId: string, update: (post: Post) => Post): void {
  const patchItems = (items: Post[]) => {
    const index = items.findIndex((p) => p.id === postId);
    if (index === -1) return items;
    const next = items.slice();
    next[index] = update(items[index]!);
    return next;
  };
  for (const queryKey of POST_LIST_KEYS) {
    queryClient.setQueriesData<InfiniteData<PostPage>>({ queryKey }, (data) => (isPostPages(data) ? mapPages(data, patchItems) : data));
  }
  queryClient.setQueriesData<Post>({ queryKey: POST_KEY }, (post) => (post && post.id === postId ? update(post) : post));
}

/** Changes some counts of a post (absolute values; never below 0). */
export function setPostCounts(queryClient: QueryClient, postId: string, counts: Partial<PostCounts>): void {
  updatePost(queryClient, postId, (post) => ({
    ...post,
    counts: {
      likes: Math.max(0, counts.likes ?? post.counts.likes),
      comments: Math.max(0, counts.comments ?? post.counts.comments),
      bookmarks: Math.max(0, counts.bookmarks ?? post.counts.bookmarks),
    },
  }));
}

/** Moves one count by `delta` (optimistic updates and their reversal); never below 0. */
export function bumpPostCount(queryClient: QueryClient, postId: string, key: keyof PostCounts, delta: number): void {
  updatePost(queryClient, postId, (post) => ({
    ...post,
    counts: { ...post.counts, [key]: Math.max(0, post.counts[key] + delta) },
  }));
}

/** Drops the post from every cached list and forgets the cached post and its comments. */
export function removePostFromCaches(queryClient: QueryClient, postId: string): void {
  const dropItem = (items: Post[]) => (items.some((p) => p.id === postId) ? items.filter((p) => p.id !== postId) : items);
  for (const queryKey of POST_LIST_KEYS) {
    queryClient.setQueriesData<InfiniteData<PostPage>>({ queryKey }, (data) => (isPostPages(data) ? mapPages(data, dropItem) : data));
  }
  const ofThisPost = (key: QueryKey, inputKey: 'id' | 'postId') => {
    const input = (key[1] as { input?: Record<string, unknown> } | undefined)?.input;
    return input?.[inputKey] === postId;
  };
  queryClient.removeQueries({ queryKey: POST_KEY, predicate: (q) => ofThisPost(q.queryKey, 'id') });
  queryClient.removeQueries({ queryKey: COMMENTS_KEY, predicate: (q) => ofThisPost(q.queryKey, 'postId') });
}

// ---- comments ---------------------------------------------------------------------------------

function commentsKey(postId: string): QueryKey {
  return [['comments', 'list'], { input: { postId }, type: 'query' }];
}

/** Appends a comment to the post's cached comment list (when it is cached); an id already there is replaced. */
export function addCommentToCache(queryClient: QueryClient, postId: string, comment: Comment): void {
  queryClient.setQueryData<Comment[]>(commentsKey(postId), (list) => {
    if (!list) return list;
    return list.some((c) => c.id === comment.id) ? list.map((c) => (c.id === comment.id ? comment : c)) : [...list, comment];
  });
}

/** Replaces the optimistic comment `clientId` with the server's row (dropping a copy a live event may have added). */
export function replaceCommentInCache(queryClient: QueryClient, postId: string, clientId: string, comment: Comment): void {
  queryClient.setQueryData<Comment[]>(commentsKey(postId), (list) => {
    if (!list) return list;
    const without = list.filter((c) => c.id !== comment.id);
    return without.some((c) => c.id === clientId) ? without.map((c) => (c.id === clientId ? comment : c)) : [...without, comment];
  });
}

export function removeCommentFromCache(queryClient: QueryClient, postId: string, commentId: string): void {
  queryClient.setQueryData<Comment[]>(commentsKey(postId), (list) => list?.filter((c) => c.id !== commentId));
}

/** Comments made on this client carry this prefix until the server's row replaces them. */
export const CLIENT_COMMENT_PREFIX = 'client-';

let clientIds = 0;
export function clientCommentId(): string {
  clientIds += 1;
  return `${CLIENT_COMMENT_PREFIX}${Date.now().toString(36)}-${clientIds}`;
}

// ---- posts being deleted, posts gone ----------------------------------------------------------

/**
 * The spec's "queue of post ids pending deletion": a post is hidden the moment its owner deletes
 * it and shown again if the server refuses. Posts deleted for good (here or, live, elsewhere)
 * stay hidden even if a stale page still holds them; a post page of one shows 'Post not found'.
 */
const pendingDeletion = new Set<string>();
const gone = new Set<string>();
let snapshot: { pending: ReadonlySet<string>; gone: ReadonlySet<string> } = { pending: new Set(), gone: new Set() };
const listeners = new Set<() => void>();

function emit() {
  snapshot = { pending: new Set(pendingDeletion), gone: new Set(gone) };
  for (const listener of listeners) listener();
}

export function queuePostDeletion(postId: string): void {
  pendingDeletion.add(postId);
  emit();
}

export function settlePostDeletion(postId: string, outcome: 'deleted' | 'restored'): void {
  pendingDeletion.delete(postId);
  if (outcome === 'deleted') gone.add(postId);
  emit();
}

/** A post deleted elsewhere (socket `post:deleted`). */
export function markPostGone(postId: string): void {
  if (gone.has(postId)) return;
  gone.add(postId);
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Ids of posts not to show: pending deletion or gone. */
export function useHiddenPosts(): { pending: ReadonlySet<string>; gone: ReadonlySet<string> } {
  return useSyncExternalStore(subscribe, () => snapshot);
}
