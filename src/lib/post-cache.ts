import { useMutationState, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { getMutationKey, getQueryKey } from '@trpc/react-query';
import { useMemo } from 'react';
import { trpc, type RouterOutputs } from './trpc';

/**
 * Posts live in several react-query caches at once: the lists below, the single post
 * (`posts.byId`) and its comments (`comments.list`). Optimistic updates and live socket events
 * change a post through these helpers, so every screen that shows it agrees. Keys come from
 * tRPC's typed `getQueryKey`, never written by hand.
 */
export type Post = RouterOutputs['posts']['byId'];
export type PostPage = RouterOutputs['posts']['feed'];
export type Comment = RouterOutputs['comments']['list'][number];
export type PostCounts = Post['counts'];

/**
 * Every list a post can appear in, all paged like the feed (`{ items, nextCursor }`): a new list
 * of post cards is registered here, and counts and deletions reach it.
 */
export const POST_LISTS = {
  feed: trpc.posts.feed,
  profileContent: trpc.profiles.posts,
  drafts: trpc.profiles.drafts,
  bookmarks: trpc.bookmarks.list,
  explore: trpc.explore.search,
} as const;

/** Query keys matching every cached page of every list (any input). */
const postListKeys = (): QueryKey[] => Object.values(POST_LISTS).map((list) => getQueryKey(list));
const postKey = (postId?: string): QueryKey => (postId === undefined ? getQueryKey(trpc.posts.byId) : getQueryKey(trpc.posts.byId, { id: postId }, 'query'));
const commentsKey = (postId: string): QueryKey => getQueryKey(trpc.comments.list, { postId }, 'query');

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
  for (const queryKey of postListKeys()) {
    queryClient.setQueriesData<InfiniteData<PostPage>>({ queryKey }, (data) => (isPostPages(data) ? mapPages(data, patchItems) : data));
  }
  queryClient.setQueriesData<Post>({ queryKey: postKey() }, (post) => (post && post.id === postId ? update(post) : post));
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

/**
 * A post of the signed-in creator's that has just been published goes to the front of the cached
 * home feed (other viewers see a 'new posts' pill instead); nothing happens when it is there already.
 */
export function addPostToFeed(queryClient: QueryClient, post: Post): void {
  queryClient.setQueriesData<InfiniteData<PostPage>>({ queryKey: getQueryKey(POST_LISTS.feed) }, (data) => {
    if (!isPostPages(data) || !data.pages[0] || data.pages.some((page) => page.items.some((p) => p.id === post.id))) return data;
    const [first, ...rest] = data.pages;
    return { ...data, pages: [{ ...first, items: [post, ...first.items] }, ...rest] };
  });
}

/**
 * A deleted post: dropped from every cached list, its comments forgotten, and its own entry reset
 * so a page still showing it asks again and says 'Post not found'.
 */
export function removePostFromCaches(queryClient: QueryClient, postId: string): void {
  const dropItem = (items: Post[]) => (items.some((p) => p.id === postId) ? items.filter((p) => p.id !== postId) : items);
  for (const queryKey of postListKeys()) {
    queryClient.setQueriesData<InfiniteData<PostPage>>({ queryKey }, (data) => (isPostPages(data) ? mapPages(data, dropItem) : data));
  }
  queryClient.removeQueries({ queryKey: commentsKey(postId), exact: true });
  void queryClient.resetQueries({ queryKey: postKey(postId), exact: true });
}

// ---- comments ---------------------------------------------------------------------------------

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

// ---- posts being deleted ---------------------------------------------------------------------

/**
 * The spec's "queue of post ids pending deletion": a post is hidden the moment its owner deletes
 * it (while its `posts.delete` mutation runs) and shown again if the server refuses; once deleted
 * it is gone from the caches (removePostFromCaches).
 */
export function usePostsBeingDeleted(): ReadonlySet<string> {
  const ids = useMutationState({
    filters: { mutationKey: getMutationKey(trpc.posts.delete), status: 'pending' },
    select: (mutation) => (mutation.state.variables as { postId?: string } | undefined)?.postId ?? '',
  });
  return useMemo(() => new Set(ids), [ids]);
}

/**
 * The posts of an infinite list as shown: each once (pages may overlap after a change), without
 * those being deleted; `lead` may put cards in front (the creator's pending uploads).
 */
export function usePostList(data: InfiniteData<{ items: Post[] }, unknown> | undefined, lead?: (posts: Post[]) => Post[]): Post[] {
  const deleting = usePostsBeingDeleted();
  return useMemo(() => {
    const seen = new Set<string>();
    const list: Post[] = [];
    for (const page of data?.pages ?? []) {
      for (const post of page.items) {
        if (seen.has(post.id) || deleting.has(post.id)) continue;
        seen.add(post.id);
        list.push(post);
      }
    }
    return lead ? lead(list) : list;
  }, [data, deleting, lead]);
}
