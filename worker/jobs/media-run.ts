import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { claimRun, noteRunFile, releaseRun, renewRun, type RunTable } from '../../domain/processing/runs.queries';
import { MediaAbortedError, throwIfAborted } from '../media/errors';
import type { WorkerDeps } from '../registry';

/** One run of a media job that holds its item (domain/processing/runs.queries.ts). */
export interface MediaRun {
  /** unique to this run: its output files are stored under it, so no other run overwrites or deletes them */
  id: string;
  /** another run held the item first: what was read before may have changed */
  waited: boolean;
  /** to call before writing a file: a run taking over from this one, should it die, deletes it */
  willWrite(key: string): Promise<void>;
  /** stops the heartbeat and lets the item go (whatever happened: call it in a finally) */
  release(): Promise<void>;
}

/**
 * The lease of a run: the same as BullMQ's lock on a media job (MEDIA_LOCK_DURATION_MS, 20 s),
 * renewed four times in it, so a run whose worker died is known as such when its job's lock
 * has lapsed too.
 */
export const runLeaseMs = (config: WorkerDeps['config']) => config.MEDIA_LOCK_DURATION_MS;

/**
 * Takes `id` of `table` for a new run, waiting while another live run holds it (a duplicate
 * job: the sweep or the stall check queued it again during a Redis outage while the first run
 * still worked). Null when the item is no longer 'processing' (that run finished it, or it was
 * deleted): nothing to do. Taking over from a run that died, deletes the files it had noted
 * (willWrite). Throws MediaAbortedError when `signal` fires while waiting.
 */
export async function holdRun(
  deps: Pick<WorkerDeps, 'db' | 'config' | 'log' | 'storage'>,
  table: RunTable,
  id: string,
  signal?: AbortSignal,
): Promise<MediaRun | null> {
  const { db, log } = deps;
  const runId = randomUUID();
  const leaseMs = runLeaseMs(deps.config);
  const beatMs = Math.max(250, Math.floor(leaseMs / 4));
  let waited = false;
  for (;;) {
    throwIfAborted(signal);
    const { outcome, leftovers } = await claimRun(db, table, id, runId, leaseMs);
    if (outcome === 'done') return null;
    if (outcome === 'claimed') {
      // what a run that died had started to write: nobody's
      for (const key of leftovers) await deps.storage.delete(key).catch((error: unknown) => log.warn({ err: error, key }, 'could not delete a dead run\'s file'));
      break;
    }
    if (!waited) log.warn({ table, id }, 'media job: another live run holds this item; waiting for it');
    waited = true;
    try {
      await sleep(beatMs, undefined, { signal });
    } catch {
      throw new MediaAbortedError('aborted');
    }
  }
  const timer = setInterval(() => {
    renewRun(db, table, id, runId).catch((error: unknown) => log.warn({ err: error, table, id }, 'media job: could not renew its heartbeat'));
  }, beatMs);
  timer.unref();
  return {
    id: runId,
    waited,
    willWrite: (key) => noteRunFile(db, table, id, runId, key),
    async release() {
      clearInterval(timer);
      await releaseRun(db, table, id, runId).catch((error: unknown) => log.warn({ err: error, table, id }, 'media job: could not release its run'));
    },
  };
}
