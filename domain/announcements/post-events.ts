import type { ProfileVisibility } from '../../common/enums';
import { userRoom, type PostFileEvent } from '../../common/socket-events';
import { emitPostPublished } from './post-published';
import type { Realtime } from '../../core/realtime/realtime';
import { canSeeProfile } from '../access/access';

/**
 * Who hears of a post's state change, decided here once for the media worker (processing
 * finished, failed, progress), the maintenance job (a lost job failed for good) and the server
 * (a draft published by its creator):
 *   - post:published: the creator's sockets (`user:<id>`, with the upload's optimisticId: the
 *     'Publishing' card is replaced), and open feeds (`feed`) only when everyone may see the
 *     creator's profile: a private or hidden creator's post could not be shown there;
 *   - post:failed, post:draft-ready, post:progress: the creator's sockets only.
 */

/** The post an event is about, as its creator's tabs know it (the upload's optimistic card id). */
export interface AnnouncedPost {
  postId: string;
  creatorId: string;
  optimisticId: string | null;
}

/** Whether open feeds hear that a post of this creator was published (privacy null: no row, public). */
export function feedHearsOfPost(creatorId: string, creatorVisibility: ProfileVisibility | null): boolean {
  return canSeeProfile(null, creatorId, creatorVisibility);
}

/** post:published in its two shapes (post-published.ts), to the creator and maybe the feed. */
export function announcePostPublished(realtime: Realtime, post: AnnouncedPost, creatorVisibility: ProfileVisibility | null): void {
  emitPostPublished(realtime, post, { toFeed: feedHearsOfPost(post.creatorId, creatorVisibility) });
}

/** `reason` is shown to the creator as is. */
export function announcePostFailed(realtime: Realtime, post: AnnouncedPost, reason: string): void {
  realtime.toRooms(userRoom(post.creatorId), 'post:failed', { postId: post.postId, optimisticId: post.optimisticId, reason });
}

export function announceDraftReady(realtime: Realtime, post: AnnouncedPost): void {
  realtime.toRooms(userRoom(post.creatorId), 'post:draft-ready', { postId: post.postId, optimisticId: post.optimisticId });
}

/** `percent`: 0-100; callers throttle (a few times per job). */
export function announceProgress(realtime: Realtime, post: AnnouncedPost, percent: number): void {
  realtime.toRooms(userRoom(post.creatorId), 'post:progress', { postId: post.postId, optimisticId: post.optimisticId, percent });
}

/** One file of a post of several: processing (percent, throttled by the caller), ready or failed with its reason. */
export function announceFileState(realtime: Realtime, post: AnnouncedPost, file: Omit<PostFileEvent, 'postId' | 'optimisticId'>): void {
  realtime.toRooms(userRoom(post.creatorId), 'post:file', { postId: post.postId, optimisticId: post.optimisticId, ...file });
}
