import type { Logger } from 'pino';
import type { MediaKind, ProfileVisibility } from '../../common/enums';
import { processPostJobId } from '../../common/jobs';
import { postRoom, userRoom } from '../../common/socket-events';
import type { Config } from '../../core/config';
import { isDependencyUnavailable } from '../../core/dependency-errors';
import { dispatchOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import { enqueueProcessPost } from '../../core/queues/media';
import type { Queues } from '../../core/queues/queues';
import type { EmitOrigin, Realtime } from '../../core/realtime/realtime';
import { announceDraftReady, announcePostFailed, announcePostPublished, type AnnouncedPost } from '../announcements/post-events';

/** Who hears that a post changed state, decided by ./transitions.ts and told here, after the commit. */
export type PostEvent =
  /** the creator's tabs and, when anyone may see the creator's profile, open feeds (post:published) */
  | { kind: 'published'; post: AnnouncedPost; creatorVisibility: ProfileVisibility | null }
  /** the creator's tabs (post:draft-ready) */
  | { kind: 'draft-ready'; post: AnnouncedPost }
  /** the creator's tabs, with the reason they read (post:failed) */
  | { kind: 'failed'; post: AnnouncedPost; reason: string }
  /** the post's room and the creator's tabs, but the tab that deleted it (post:deleted) */
  | { kind: 'deleted'; postId: string; creatorId: string }
  /** the post's room and the creator's tabs (post:updated): its files changed (a vault file deleted) */
  | { kind: 'updated'; postId: string; creatorId: string };

/** What a change of a post's state leaves to do once it committed. */
export interface PostEffects {
  events: PostEvent[];
  /** jobs whose outbox rows were written in the change's transaction (a deleted post's files) */
  jobs: QueuedEntry[];
  /**
   * posts to queue for processing (job `process-post-<id>`); not through the outbox: the
   * lost-job sweep (worker/jobs/lost-jobs.ts) is their relay, as PostgreSQL says they are 'processing'
   */
  process: { postId: string; mediaKind: MediaKind | null }[];
}

export const noPostEffects = (): PostEffects => ({ events: [], jobs: [], process: [] });

export type PostEffectDeps = {
  realtime: Realtime;
  queues: Pick<Queues, 'add' | 'media' | 'transcode'>;
  log: Pick<Logger, 'warn' | 'error'>;
  config: Pick<Config, 'REDIS_COMMAND_TIMEOUT_MS'>;
} & Partial<EmitOrigin>;

/**
 * After the commit, never inside it: the events go out, the outbox jobs are queued (the relay
 * queues what Redis did not take now) and the posts to process are queued, each bounded by 2x
 * REDIS_COMMAND_TIMEOUT_MS so that a caller with Redis away answers within seconds. Returns the
 * posts that could not be queued now (committed 'processing' all the same: the lost-job sweep
 * queues them once Redis answers).
 */
export async function applyPostEffects(deps: PostEffectDeps, effects: PostEffects): Promise<{ unqueued: string[] }> {
  for (const event of effects.events) announce(deps, event);
  await dispatchOutbox(deps, effects.jobs);
  const unqueued: string[] = [];
  for (const { postId, mediaKind } of effects.process) {
    try {
      await enqueueProcessPost(deps.queues, postId, mediaKind, 2 * deps.config.REDIS_COMMAND_TIMEOUT_MS);
    } catch (error) {
      const level = isDependencyUnavailable(error) ? 'warn' : 'error';
      deps.log[level]({ err: error, postId, jobId: processPostJobId(postId) }, 'could not queue a post for processing; the lost-job sweep will');
      unqueued.push(postId);
    }
  }
  return { unqueued };
}

function announce(deps: PostEffectDeps, event: PostEvent): void {
  switch (event.kind) {
    case 'published':
      // a hook "post published -> notify subscribers" belongs in transitions.ts `published()`, as an outbox job
      return announcePostPublished(deps.realtime, event.post, event.creatorVisibility);
    case 'draft-ready':
      return announceDraftReady(deps.realtime, event.post);
    case 'failed':
      return announcePostFailed(deps.realtime, event.post, event.reason);
    case 'deleted':
      // drafts and uploads are not always in a room: the creator's other tabs hear it by their user room
      return deps.realtime.toRooms([postRoom(event.postId), userRoom(event.creatorId)], 'post:deleted', { postId: event.postId }, { except: deps.socketId ?? null });
    case 'updated':
      return deps.realtime.toRooms([postRoom(event.postId), userRoom(event.creatorId)], 'post:updated', { postId: event.postId });
  }
}
