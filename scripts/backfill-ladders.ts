/**
 * `npm run backfill:ladders`: queues the HLS ladder of every video posted before ladders existed
 * and every chat video sent before then (issue 49, docs/media.md): one 'build-ladder' job per
 * post and one 'build-attachment-ladder' job per chat video, each first an outbox row (so a
 * Redis that does not answer only delays it: the workers' relay queues it), in batches. The
 * `transcode` queue works through the posts one at a time per worker, beside new uploads (the
 * chat videos: `attachment-transcode`, behind chat files waiting to become playable). Safe to run
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
    console.log(`${queued.posts} post(s) and ${queued.chatVideos} chat video(s) queued for their HLS ladder`);
  } finally {
    await deps.close();
  }
});
