import type { MediaKind } from '../../common/enums';
import { mediaQueueFor, processPostJobId } from '../../common/jobs';
import { withTimeout } from '../dependency-errors';
import type { Queues } from './queues';

export type EnqueueOutcome = 'added' | 'already-queued' | 'replaced';

/**
 * Queues the processing of a post on `media` or `transcode` (by its kind) with the job id
 * `process-post-<postId>`. A job still waiting or running is left alone (a duplicate is a
 * no-op); a finished one (completed, or failed for good) is removed first so the post can be
 * processed again (retry after a failure, or a lost job being re-queued).
 */
export async function enqueueProcessPost(
  queues: Pick<Queues, 'media' | 'transcode'>,
  postId: string,
  kind: MediaKind | null,
  timeoutMs?: number,
): Promise<EnqueueOutcome> {
  const work = addProcessPost(queues, postId, kind);
  // Redis down: the post stays 'processing' in PostgreSQL and the lost-job sweep queues it later
  return timeoutMs ? withTimeout(work, timeoutMs, 'redis', `queueing post ${postId}`) : work;
}

async function addProcessPost(queues: Pick<Queues, 'media' | 'transcode'>, postId: string, kind: MediaKind | null): Promise<EnqueueOutcome> {
  const queue = queues[mediaQueueFor(kind)];
  const jobId = processPostJobId(postId);
  const existing = await queue.getJob(jobId);
  let outcome: EnqueueOutcome = 'added';
  if (existing) {
    const state = await existing.getState();
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return 'already-queued';
    await existing.remove();
    outcome = 'replaced';
  }
  await queue.add('process-post', { postId }, { jobId });
  return outcome;
}
