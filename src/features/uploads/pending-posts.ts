import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { MediaKind } from '../../../common/enums';
import type { Post } from '../../lib/post-cache';
import type { CurrentUser } from '../../lib/trpc';

/**
 * The spec's optimistic post (part 1 §4, part 2 §3): a post the creator published from this tab.
 * It shows at the front of the home feed as a 'Publishing' card, 'Uploading N%' while its bytes
 * travel and 'Processing...' (with the worker's progress) once they are on the server, until `post:published` with its optimisticId arrives (then
 * the real post takes its place), `post:failed` removes it, or a timeout check finds it done.
 *
 * Pending uploads are client state kept in react-query under a key of their own (no server call
 * behind it): the lists' server data never holds them; `withPendingPosts` puts their cards in
 * front of a list when it is rendered, so a refetch cannot drop them.
 */
export interface PendingPost {
  optimisticId: string;
  /** the post the upload became (the `Upload-Post-Id` of its last response) */
  postId: string | null;
  filename: string;
  mediaKind: MediaKind;
  title: string | null;
  text: string | null;
  hashtags: string[];
  isPremium: boolean;
  isNsfw: boolean;
  /** an object URL of the picked image, for the card; revoked once the post settles */
  previewUrl: string | null;
  createdAt: Date;
  /**
   * Share (0-100) of the file's bytes the server has while they travel ('Uploading N%'); null
   * once they are all there and the worker has the post ('Processing...').
   */
  uploadPercent: number | null;
  /** when the bytes were all on the server (null while they travel): the timeout check counts from it */
  uploadedAt: Date | null;
  creator: Pick<CurrentUser, 'id' | 'username' | 'displayName' | 'avatarUrl' | 'isVerified' | 'isPremium'>;
}

interface PendingUploads {
  /** newest first */
  posts: readonly PendingPost[];
  /** processing progress (0-100) by post id, from `post:progress` */
  progress: Readonly<Record<string, number>>;
}

export const OPTIMISTIC_ID_PREFIX = 'optimistic-';
const EMPTY: PendingUploads = { posts: [], progress: {} };

/** A key of the client's own (tRPC keys start with a path array), for state no server holds. */
const PENDING_UPLOADS_KEY = ['client', 'pending-uploads'] as const;

const pendingUploadsOptions = queryOptions({
  queryKey: PENDING_UPLOADS_KEY,
  // never fetched: the state is only ever set from this tab; a refetch would keep what is there
  queryFn: ({ client }) => client.getQueryData<PendingUploads>(PENDING_UPLOADS_KEY) ?? EMPTY,
  enabled: false,
  initialData: EMPTY,
  staleTime: Infinity,
  gcTime: Infinity,
});

function read(queryClient: QueryClient): PendingUploads {
  return queryClient.getQueryData(pendingUploadsOptions.queryKey) ?? EMPTY;
}

function write(queryClient: QueryClient, update: (state: PendingUploads) => PendingUploads): void {
  queryClient.setQueryData(pendingUploadsOptions.queryKey, (state) => update(state ?? EMPTY));
}

/** optimisticIds already settled: a repeated event does nothing */
const settled = new Set<string>();

export function usePendingPosts(): readonly PendingPost[] {
  return useQuery({ ...pendingUploadsOptions, select: (state) => state.posts }).data;
}

/** Processing progress (0-100) of a post, when the worker reported any. */
export function useProcessingProgress(postId: string | null | undefined): number | null {
  return useQuery({ ...pendingUploadsOptions, select: (state) => (postId ? (state.progress[postId] ?? null) : null) }).data;
}

export function findPending(queryClient: QueryClient, optimisticId: string | null | undefined): PendingPost | null {
  return optimisticId ? (read(queryClient).posts.find((p) => p.optimisticId === optimisticId) ?? null) : null;
}

export function setProcessingProgress(queryClient: QueryClient, postId: string, percent: number): void {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  if (read(queryClient).progress[postId] === value) return;
  write(queryClient, (state) => ({ ...state, progress: { ...state.progress, [postId]: value } }));
}

// ---- the optimistic card ----------------------------------------------------------------------

export function isOptimisticPost(post: Pick<Post, 'id'>): boolean {
  return post.id.startsWith(OPTIMISTIC_ID_PREFIX);
}

export function optimisticIdOf(post: Pick<Post, 'id'>): string | null {
  return isOptimisticPost(post) ? post.id.slice(OPTIMISTIC_ID_PREFIX.length) : null;
}

function toOptimisticPost(p: PendingPost): Post {
  return {
    id: `${OPTIMISTIC_ID_PREFIX}${p.optimisticId}`,
    title: p.title,
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

/**
 * The cards of the pending uploads in front of a list, when it is rendered: a pending post whose
 * real post the list holds already (a refetch was quicker than the event) is not shown twice.
 */
export function withPendingPosts(pending: readonly PendingPost[], posts: Post[]): Post[] {
  if (pending.length === 0) return posts;
  const present = new Set(posts.map((post) => post.id));
  const cards = pending.filter((p) => !(p.postId && present.has(p.postId))).map(toOptimisticPost);
  return cards.length ? [...cards, ...posts] : posts;
}

// ---- lifecycle ------------------------------------------------------------------------------

/** A published upload's card goes to the front of the feed (while its bytes travel, then processing). */
export function addPendingPost(queryClient: QueryClient, post: PendingPost): void {
  write(queryClient, (state) => ({
    ...state,
    posts: [post, ...state.posts.filter((p) => p.optimisticId !== post.optimisticId)].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()),
  }));
}

/** How far the bytes of a pending post are; written only when the whole percent changes. */
export function setUploadPercent(queryClient: QueryClient, optimisticId: string, percent: number): void {
  const value = Math.max(0, Math.min(100, Math.floor(percent)));
  const entry = findPending(queryClient, optimisticId);
  if (!entry || entry.uploadPercent === null || entry.uploadPercent === value) return;
  write(queryClient, (state) => ({ ...state, posts: state.posts.map((p) => (p.optimisticId === optimisticId ? { ...p, uploadPercent: value } : p)) }));
}

/**
 * Claims the settling of a pending post once: true the first time (a repeated event, or the
 * timeout check after the event, gets false). The card stays until `dropPending`.
 */
export function claimPending(optimisticId: string): boolean {
  if (settled.has(optimisticId)) return false;
  settled.add(optimisticId);
  return true;
}

/** The card goes (the real post took its place, or the upload failed). */
export function dropPending(queryClient: QueryClient, optimisticId: string): void {
  const entry = findPending(queryClient, optimisticId);
  if (!entry) return;
  write(queryClient, (state) => {
    const progress = { ...state.progress };
    if (entry.postId) delete progress[entry.postId];
    return { posts: state.posts.filter((p) => p.optimisticId !== optimisticId), progress };
  });
  // the preview may still be painting for a moment
  if (entry.previewUrl) {
    const url = entry.previewUrl;
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}

/** The card leaves the feed for now (a paused upload): its preview stays usable for when it comes back. */
export function hidePending(queryClient: QueryClient, optimisticId: string): void {
  if (!findPending(queryClient, optimisticId)) return;
  write(queryClient, (state) => ({ ...state, posts: state.posts.filter((p) => p.optimisticId !== optimisticId) }));
}

/** Pending posts whose upload finished more than `olderThanMs` ago (not those whose bytes still travel). */
export function pendingOlderThan(queryClient: QueryClient, olderThanMs: number, now = Date.now()): PendingPost[] {
  return read(queryClient).posts.filter((p) => p.uploadedAt !== null && now - p.uploadedAt.getTime() > olderThanMs);
}
