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
 *   (upload finished) ─create─▶ processing ─complete─▶ scheduled (when the creator chose a time)
 *   scheduled ─publish─▶ published (its time come: the job 'publish-scheduled'; or the creator's Publish now)
 *   scheduled ─reschedule─▶ scheduled (a new time)      scheduled ─cancel─▶ draft
 *   any state ─delete─▶ gone (its files by the outbox job 'delete-post-files')
 */
export type PostChange = 'complete' | 'fail' | 'retry' | 'publish' | 'reschedule' | 'cancel' | 'delete';

/** What the creator chose at upload: the state processing ends in. */
export type FinishedStatus = Extract<PostStatus, 'draft' | 'published' | 'scheduled'>;

const CHANGES: Record<PostChange, readonly PostStatus[]> = {
  complete: ['processing'],
  fail: ['processing'],
  retry: ['failed'],
  publish: ['draft', 'scheduled'],
  reschedule: ['scheduled'],
  cancel: ['scheduled'],
  delete: ['processing', 'failed', 'draft', 'published', 'scheduled'],
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
 * write. The one place a status of 'published' is paired with its published_at (a scheduled post
 * has none until its time: it is the owner's alone, like a draft).
 */
export function becoming<T>(status: FinishedStatus, now: T): { status: FinishedStatus; published_at: T | null } {
  return { status, published_at: status === 'published' ? now : null };
}
