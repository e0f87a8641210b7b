import type { PostStatus } from '../../common/enums';

/**
 * A post's states and the changes between them, as one table: every write of `posts.status`
 * (lifecycle.queries.ts) names its change and is guarded by the states the change starts from,
 * so a change asked from any other state writes nothing (and its caller refuses).
 *
 *   (upload finished) ─create─▶ processing ─complete─▶ draft | published (what the creator chose)
 *                                 │    ▲                  │
 *                               fail  retry             publish (draft ─▶ published)
 *                                 ▼    │
 *                                failed
 *   any state ─delete─▶ gone (its files by the outbox job 'delete-post-files')
 *
 * A scheduled post would be one more state here ('scheduled', published by `publish` at its time).
 */
export type PostChange = 'complete' | 'fail' | 'retry' | 'publish' | 'delete';

/** What the creator chose at upload: the state processing ends in. */
export type FinishedStatus = Extract<PostStatus, 'draft' | 'published'>;

const CHANGES: Record<PostChange, readonly PostStatus[]> = {
  complete: ['processing'],
  fail: ['processing'],
  retry: ['failed'],
  publish: ['draft'],
  delete: ['processing', 'failed', 'draft', 'published'],
};

/** The states `change` may start from (the WHERE of its write). */
export function changeableFrom(change: PostChange): PostStatus[] {
  return [...CHANGES[change]];
}

/** Whether a post in `status` may undergo `change`. */
export function canChange(status: PostStatus, change: PostChange): boolean {
  return CHANGES[change].includes(status);
}

/**
 * The columns a post takes on becoming `status`: a published post carries its publication time
 * (the DB constraint posts_published_at_check), a draft none. `now` is the SQL or JS time of the
 * write. The one place a status of 'published' is paired with its published_at.
 */
export function becoming<T>(status: FinishedStatus, now: T): { status: FinishedStatus; published_at: T | null } {
  return { status, published_at: status === 'published' ? now : null };
}
