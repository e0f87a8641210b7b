import { z } from 'zod';
import { FeedCursor } from './cursor-schema';
import { LIMITS } from './limits';

/**
 * `purchases.mine` (issue 47 item 8): the caller's own purchases, newest first, keyset-paged.
 * Strict: the list is always the caller's; an input naming anyone (a `userId`) is refused.
 */
export const PURCHASE_FILTERS = ['all', 'posts', 'messages'] as const;
export type PurchaseFilter = (typeof PURCHASE_FILTERS)[number];

export const PurchasesInput = z
  .object({
    filter: z.enum(PURCHASE_FILTERS).default('all'),
    cursor: FeedCursor.nullish(),
    limit: z.number().int().min(1).max(LIMITS.feedPageMax).default(LIMITS.feedPageSize),
    // what React Query's infinite lists add to every page's input
    direction: z.enum(['forward', 'backward']).optional(),
  })
  .strict();
export type PurchasesInput = z.output<typeof PurchasesInput>;

/** One thing the fan bought: a pay-per-view post or a paid message. */
export interface PurchaseDto {
  /** the purchase's own id (the unlock's or the charge's) */
  id: string;
  kind: 'post' | 'message';
  amount: string;
  purchasedAt: Date;
  creator: { username: string; displayName: string; avatarUrl: string | null };
  /** a post: its id and name (its title, or 'Post by …') */
  post: { id: string; name: string } | null;
  /** a message: its id and text (null when it is a file only) */
  message: { id: string; text: string | null } | null;
}

export interface PurchasePageDto {
  items: PurchaseDto[];
  nextCursor: FeedCursor | null;
}

export const PURCHASE_TEXTS = {
  title: 'Purchased',
  empty: 'Nothing bought yet. Pay-per-view posts and paid messages you unlock appear here.',
  emptyPosts: 'No posts bought yet.',
  emptyMessages: 'No paid messages bought yet.',
  loadFailed: 'Failed to load your purchases',
  filters: { all: 'All', posts: 'Posts', messages: 'Messages' },
  postKind: 'Post',
  messageKind: 'Message',
  fileOnly: 'A file',
} as const;
