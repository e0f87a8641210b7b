import { WaitingError, type Job } from 'bullmq';
import type { ForensicJobs } from '../../common/jobs';
import { isMarkedPost } from '../../domain/forensics/marked';
import { failTrace, finishTrace, findTrace, markTraceRunning } from '../../domain/forensics/traces.queries';
import type { TraceVerdict } from '../../domain/forensics/verdict';
import { TRACERS, type TracedKind } from '../forensics/tracers';
import { MediaAbortedError, MediaContentError } from '../media/errors';
import type { JobContext, WorkerDeps } from '../registry';
import { withUploadInWorkDir } from './media-job';

/**
 * 'trace-leak' (queue `forensics`, from the outbox): reads a suspected leak against its post and
 * records the verdict (docs/media.md, "Tracing a leak"). A free post answers at once that nothing
 * is marked; otherwise the tracer of the post's kind (forensics/tracers.ts) reads the uploaded
 * file in a work folder of its own. Idempotent: a trace done (or failed) is not run again, and the
 * answer is written once. A file the tracer cannot read is an answer ('unknown' and why), not a
 * failure; anything else is retried, and the trace is marked failed after the last attempt. The
 * uploaded leak leaves storage once answered (its hash and size stay in the log).
 */
export async function traceLeak(job: Job<ForensicJobs['trace-leak']>, deps: WorkerDeps, context: JobContext = {}) {
  const { db, storage, log, clock } = deps;
  const { traceId } = job.data;
  const trace = await findTrace(db, traceId);
  if (!trace || trace.status === 'done' || trace.status === 'failed') return { skipped: trace ? trace.status : 'gone' };
  const leakKey = trace.leak_key;
  await markTraceRunning(db, traceId);
  let verdict: TraceVerdict;
  try {
    if (!isMarkedPost({ isPremium: trace.is_premium, unlockPriceCents: trace.unlock_price_cents })) {
      verdict = { kind: 'unmarked' };
    } else {
      const kind: TracedKind | null = trace.content_type?.startsWith('video/') ? 'video' : trace.content_type?.startsWith('image/') ? 'picture' : null;
      if (!kind || !leakKey) {
        verdict = { kind: 'unknown', reason: 'This post has no marked media to compare with.' };
      } else {
        verdict = await withUploadInWorkDir(storage, `trace-${traceId}`, leakKey, 'leak', (leakPath, workDir) =>
          TRACERS[kind]({ deps, postId: trace.post_id, position: trace.position, leakPath, workDir, signal: context.signal }),
        );
      }
    }
  } catch (error) {
    if (error instanceof MediaAbortedError || context.signal?.aborted) {
      log.info({ traceId, jobId: job.id }, 'trace job released on shutdown');
      await job.moveToWait(context.token);
      throw new WaitingError();
    }
    if (error instanceof MediaContentError) {
      verdict = { kind: 'unknown', reason: error.message };
    } else {
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        await failTrace(db, traceId, clock.now());
        if (leakKey) await storage.delete(leakKey);
      }
      throw error;
    }
  }
  const written = await finishTrace(db, traceId, verdict, clock.now());
  if (leakKey) await storage.delete(leakKey);
  log.info({ traceId, postId: trace.post_id, verdict: verdict.kind, written }, 'leak traced');
  return { verdict: verdict.kind };
}
