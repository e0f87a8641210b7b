/**
 * `npm run backfill:ladders`: queues the HLS ladder of every video posted before ladders existed
 * (issue 49, docs/media.md): one 'build-ladder' job per post, each first an outbox row (so a
 * Redis that does not answer only delays it: the workers' relay queues it), in batches. The
 * `transcode` queue works through them one at a time per worker, beside new uploads. Safe to run
 * again at any time: a post with its ladder is not queued, a post queued already keeps its one
 * row and job, and each job skips what is done, so a worker killed mid-job makes the rest on its
 * retry.
 */
import { loadConfig } from '../core/config';
import { createDeps } from '../core/create-deps';
import { dispatchOutbox } from '../core/outbox/outbox';
import { runOrExit } from '../core/run-or-exit';
import { queueAllLadderBackfill } from '../domain/streaming/backfill';

await runOrExit(async () => {
  const deps = createDeps(loadConfig(), 'backfill-ladders');
  try {
    const queued = await queueAllLadderBackfill(deps.db, (entries) => dispatchOutbox(deps, entries));
    console.log(`${queued} post(s) queued for their HLS ladder`);
  } finally {
    await deps.close();
  }
});
