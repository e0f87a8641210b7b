/**
 * `npm run backfill:ladders`: queues the HLS ladder of every video posted before ladders existed
 * (issue 49, docs/media.md). It only writes outbox rows, one 'build-ladder' job per post, in
 * batches; the workers' relay queues them within a sweep (LOST_JOB_SWEEP_INTERVAL_MS) and the
 * `transcode` queue works through them one at a time per worker, beside new uploads. Safe to run
 * again at any time: a post queued already or with its ladder is left alone, and each job skips
 * what is done, so a worker killed mid-job makes the rest on its retry.
 */
import { loadConfig } from '../core/config';
import { createDb } from '../core/db/kysely';
import { runOrExit } from '../core/run-or-exit';
import { queueAllLadderBackfill } from '../domain/streaming/backfill';

await runOrExit(async () => {
  const config = loadConfig();
  const db = createDb(config.DATABASE_URL, 1);
  try {
    const queued = await queueAllLadderBackfill(db);
    console.log(`${queued} post(s) queued for their HLS ladder`);
  } finally {
    await db.destroy();
  }
});
