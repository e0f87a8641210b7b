import { mediaQueueFor, processPostJobId } from '../../common/jobs';
import { UPLOAD_TEXTS } from '../../common/texts';
import { enqueueProcessPost } from '../../core/queues/media';
import { findIdleProcessingPosts, type IdleCursor } from '../../domain/processing/lost-jobs.queries';
import { touchPost } from '../../domain/processing/processing.queries';
import type { WorkerDeps } from '../registry';
import { failProcessingPost } from './media-job';
import { runLeaseMs } from './media-run';

const PAGE = 200;
/** A sweep looks at this many posts at most; the rest wait for the next one. */
const MAX_PAGES = 25;

export interface LostJobSweep {
  checked: number;
  requeued: number;
  failed: number;
}

/**
 * Nothing in Redis is the only copy: PostgreSQL says which posts are 'processing', and each one
 * idle for `idleMs` (LOST_JOB_AFTER_MS) and held by no live run (a run renews its heartbeat in
 * PostgreSQL while it works, media-run.ts: after a Redis restart its job is gone but the work is
 * not, and queueing it again would only start a second run) has its job looked up by id
 * (`process-post-<postId>`).
 * No job (Redis lost it, or was down when the upload finished), or a completed one, and the post
 * is queued again; a job failed for good that did not mark the post (its worker killed on the
 * last attempt) fails the post. Waiting, delayed and active jobs are left alone, however long the
 * queue. Idempotent: several worker copies may sweep at once (the job id makes a second add a
 * no-op).
 */
export async function requeueLostJobs(deps: Pick<WorkerDeps, 'db' | 'queues' | 'realtime' | 'log' | 'config'>, idleMs: number): Promise<LostJobSweep> {
  const { db, queues, log } = deps;
  const result: LostJobSweep = { checked: 0, requeued: 0, failed: 0 };
  let after: IdleCursor | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const posts = await findIdleProcessingPosts(db, idleMs, runLeaseMs(deps.config), PAGE, after);
    if (posts.length === 0) break;
    const states = await Promise.all(posts.map((post) => queues[mediaQueueFor(post.media_kind)].getJobState(processPostJobId(post.id))));
    for (const [i, post] of posts.entries()) {
      const state = states[i];
      if (state === 'unknown' || state === 'completed') {
        await enqueueProcessPost(queues, post.id, post.media_kind);
        await touchPost(db, post.id);
        result.requeued++;
      } else if (state === 'failed') {
        await failProcessingPost(deps, post.id, UPLOAD_TEXTS.processingFailed);
        result.failed++;
      }
    }
    result.checked += posts.length;
    const last = posts[posts.length - 1]!;
    after = { changedAt: last.changed_at, id: last.id };
    if (posts.length < PAGE) break;
  }
  if (result.requeued || result.failed) log.warn(result, 'lost-job sweep: posts without a live job queued again or failed');
  return result;
}
