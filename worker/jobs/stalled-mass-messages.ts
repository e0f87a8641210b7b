import { addToOutbox, dispatchOutbox } from '../../core/outbox/outbox';
import { nextMassBatch } from '../../domain/messaging/mass-messages';
import { findStalledMassMessages, stopMassMessage } from '../../domain/messaging/stalled-mass-messages.queries';
import type { WorkerDeps } from '../registry';

/** Messages to many looked at per sweep, longest idle first; the rest wait for the next sweep. */
const PER_SWEEP = 200;

export interface StalledMassMessageSweep {
  resumed: number;
  stopped: number;
}

/**
 * The keeper's look at messages to many that stopped moving (issue 44): unfinished, no batch for
 * `idleMs` (LOST_JOB_AFTER_MS). Each batch writes the outbox row of the next with its cursor, so
 * the row keyed by the cursor says why:
 * - pending: alive; the relay keeps its job in Redis (a long queue is no stall);
 * - missing: the chain's next step was never written (a batch run by an older version, which
 *   queued it in Redis only) or its row was purged: written again from the saved cursor, so the
 *   delivery resumes where it stopped and writes nobody twice (one copy per recipient);
 * - failed: the relay gave up on it (OUTBOX_MAX_RELAYS): the message is 'failed' and the creator's
 *   list says how far it got;
 * - done: its batch committed after this look began (it is moving again): left alone.
 * Idempotent: several workers may sweep at once (the jobId makes a second row and add no-ops).
 */
export async function resumeStalledMassMessages(deps: Pick<WorkerDeps, 'db' | 'queues' | 'log'>, idleMs: number): Promise<StalledMassMessageSweep> {
  const result: StalledMassMessageSweep = { resumed: 0, stopped: 0 };
  for (const mass of await findStalledMassMessages(deps.db, idleMs, PER_SWEEP)) {
    if (mass.next === 'missing') {
      await dispatchOutbox(deps, [await addToOutbox(deps.db, nextMassBatch(mass.id, mass.cursor))]);
      result.resumed++;
    } else if (mass.next === 'failed' && (await stopMassMessage(deps.db, mass.id, mass.cursor))) {
      deps.log.error({ massMessageId: mass.id }, 'message to many stopped: the job of its next batch failed for good');
      result.stopped++;
    }
  }
  if (result.resumed) deps.log.warn(result, 'stalled messages to many: their next batch written again');
  return result;
}
