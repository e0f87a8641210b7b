import { sendPushJobId, type NotificationJobs } from '../../common/jobs';
import { addManyToOutbox, dispatchOutbox } from '../../core/outbox/outbox';
import { sendWebPush, vapidOf, type StoredPushSubscription } from '../../core/push/web-push';
import { overCaps, withinCap } from '../../domain/notifications/caps';
import { fanOutBatch, unreadCounts } from '../../domain/notifications/fan-out';
import { unreadNotificationCount } from '../../domain/notifications/notify';
import { markPushesSent, unsentPushes, type PushPair } from '../../domain/notifications/push-sends';
import { findNotificationRows, findNotificationRowsById, pushPayloadOf, type NotificationRow } from '../../domain/notifications/rows';
import type { QueueHandlers, WorkerDeps } from '../registry';

/**
 * Delivery of a notification notify() wrote (issue 28): its user's tabs hear the new unread count,
 * and with push on, one `send-push` per browser on `notifications`. Each push is an outbox row
 * written before this job returns, so this job's own row is marked done (worker/workers.ts) only
 * once they are durable: a Redis that forgets the queued pushes loses none (issue 44).
 */
async function deliver(deps: WorkerDeps, data: NotificationJobs['deliver-notification']) {
  const row = await deps.db.selectFrom('notifications').select(['id', 'user_id', 'shown', 'actor_count']).where('id', '=', data.notificationId).executeTakeFirst();
  if (!row) return { skipped: 'gone' };
  if (row.shown) deps.realtime.toUser(row.user_id, 'notifications:unread', { count: await unreadNotificationCount(deps.db, row.user_id) });
  if (!data.push || !vapidOf(deps.config)) return { pushed: 0 };
  const browsers = await deps.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', row.user_id).execute();
  await queuePushes(deps, browsers.map((b) => ({ row, subscriptionId: b.id })), data.pushDelayMs);
  return { pushed: browsers.length };
}

/** One `send-push` a (notification, browser), written to the outbox before the job is done, then dispatched. */
async function queuePushes(deps: WorkerDeps, pushes: { row: { id: string; actor_count: number }; subscriptionId: string }[], delayMs: number | undefined) {
  const written = await addManyToOutbox(
    deps.db,
    pushes.map(({ row, subscriptionId }) => ({
      queue: 'notifications' as const,
      name: 'send-push' as const,
      data: { notificationId: row.id, subscriptionId },
      jobId: sendPushJobId(row.id, subscriptionId, row.actor_count),
      ...(delayMs ? { delayMs } : {}),
    })),
  );
  await dispatchOutbox(deps, written);
  return written;
}

/**
 * deliver() for the rows of a message to many's batch, in a constant number of statements: each
 * shown row's user hears their unread count (one query for all), and the rows in `pushIds` get a
 * `send-push` per browser, written to the outbox before the job is done (as deliver()'s).
 */
async function deliverMany(deps: WorkerDeps, data: NotificationJobs['deliver-notifications']) {
  if (data.notificationIds.length === 0) return { told: 0, pushed: 0 };
  const rows = await deps.db.selectFrom('notifications').select(['id', 'user_id', 'shown', 'actor_count']).where('id', 'in', data.notificationIds).execute();
  const shown = [...new Set(rows.filter((r) => r.shown).map((r) => r.user_id))];
  const counts = await unreadCounts(deps.db, shown);
  for (const userId of shown) deps.realtime.toUser(userId, 'notifications:unread', { count: counts.get(userId) ?? 0 });
  const toPush = new Set(data.pushIds);
  const pushRows = rows.filter((r) => toPush.has(r.id));
  if (pushRows.length === 0 || !vapidOf(deps.config)) return { told: shown.length, pushed: 0 };
  const browsers = await deps.db.selectFrom('push_subscriptions').select(['id', 'user_id']).where('user_id', 'in', pushRows.map((r) => r.user_id)).execute();
  const rowOf = new Map(pushRows.map((r) => [r.user_id, r]));
  const pushes = await queuePushes(deps, browsers.map((b) => ({ row: rowOf.get(b.user_id)!, subscriptionId: b.id })), data.pushDelayMs);
  return { told: shown.length, pushed: pushes.length };
}

type Vapid = NonNullable<ReturnType<typeof vapidOf>>;
type Browser = { id: string; user_id: string } & StoredPushSubscription;

/**
 * One push to one browser: what happened and who (never a message's text), unless the row was read
 * meanwhile (a message read in its open thread) or the user had their hour's pushes. A browser the
 * push service no longer knows (404, 410) is forgotten; other failures throw, and the job retries.
 */
async function pushTo(deps: WorkerDeps, vapid: Vapid, browser: Browser, row: NotificationRow | undefined, capped?: Set<string>): Promise<string> {
  if (!row) return 'gone';
  if (row.read_at) return 'read';
  const payload = pushPayloadOf(row);
  if (!payload) return 'unknown kind';
  // a batch asked for all its pushes' caps at once (overCaps)
  if (capped ? capped.has(row.id) : !(await withinCap(deps.redis, deps.config.REDIS_PREFIX, 'push', browser.user_id, row.id, deps.clock.now()))) return 'cap';
  const outcome = await sendWebPush(vapid, browser, JSON.stringify(payload), { allowLocal: deps.config.PUSH_ALLOW_LOCAL_ENDPOINTS });
  if (outcome === 'gone') await deps.db.deleteFrom('push_subscriptions').where('id', '=', browser.id).execute();
  return outcome;
}

/** A notification's push to one browser (`deliver-notification`'s, one job each). */
async function sendPush(deps: WorkerDeps, data: NotificationJobs['send-push']) {
  const vapid = vapidOf(deps.config);
  const browser = await deps.db.selectFrom('push_subscriptions').selectAll().where('id', '=', data.subscriptionId).executeTakeFirst();
  if (!vapid || !browser) return { skipped: 'no browser' };
  const [row] = await findNotificationRows(deps.db, { userId: browser.user_id, id: data.notificationId, limit: 1 });
  return { outcome: await pushTo(deps, vapid, browser, row) };
}

/** Sent pushes are recorded this many at a time (and at the end, and before a failure is reported). */
const MARK_EVERY = 100;

/**
 * A fan-out batch's pushes (issue 50): every push of the batch still unsent, PUSH_BATCH_CONCURRENCY
 * at a time over the kept-alive connections (core/push/web-push.ts), each recorded as sent once the
 * push service took it. A push that failed leaves its row unsent and, once the others are done and
 * recorded, fails the job: the retry (the queue's attempts, then the outbox relay) sends only what
 * is still unsent, so no browser gets a push twice because another one's push service failed.
 */
async function sendPushBatch(deps: WorkerDeps, batch: string) {
  const vapid = vapidOf(deps.config);
  if (!vapid) return { skipped: 'push off' };
  const pending = await unsentPushes(deps.db, batch);
  // the batch's rows in one query (read a moment before their push, as one job's were)
  const rows = new Map((await findNotificationRowsById(deps.db, [...new Set(pending.map((p) => p.notification_id))])).map((r) => [r.id, r]));
  const unread = [...rows.values()].filter((r) => !r.read_at);
  const capped = await overCaps(deps.redis, deps.config.REDIS_PREFIX, 'push', unread.map((r) => ({ userId: r.user_id, notificationId: r.id })), deps.clock.now());
  const done: PushPair[] = [];
  const failures: unknown[] = [];
  const tally = new Map<string, number>();
  const record = async () => {
    const pairs = done.splice(0);
    await markPushesSent(deps.db, pairs, deps.clock.now());
  };
  let next = 0;
  const runner = async () => {
    while (next < pending.length) {
      const push = pending[next++]!;
      try {
        const outcome = await pushTo(deps, vapid, push, rows.get(push.notification_id), capped);
        tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
        // read, capped, gone: done for good too (a forgotten browser took its push_sends row with it)
        done.push({ notificationId: push.notification_id, subscriptionId: push.id });
      } catch (error) {
        failures.push(error);
      }
      if (done.length >= MARK_EVERY) await record();
    }
  };
  const runners = await Promise.allSettled(Array.from({ length: Math.min(deps.config.PUSH_BATCH_CONCURRENCY, pending.length) }, runner));
  await record();
  const broken = runners.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (broken) throw broken.reason;
  if (failures.length > 0) {
    throw new Error(`${failures.length} of ${pending.length} pushes not sent (sent ones are recorded; a retry sends the rest)`, { cause: failures[0] });
  }
  return { pushes: pending.length, ...Object.fromEntries(tally) };
}

/**
 * One batch of a new post's subscribers; its transaction wrote the outbox rows of the next batch
 * (queued first: lifo) and of its pushes (domain/notifications/fan-out.ts), queued after the commit.
 */
async function fanOut(deps: WorkerDeps, postId: string, after: string | null) {
  const batch = await fanOutBatch(deps.db, postId, after, deps.clock.now(), { size: deps.config.NOTIFY_FANOUT_BATCH_SIZE, push: vapidOf(deps.config) !== null });
  if (!batch) return { skipped: 'not visible' };
  await dispatchOutbox(deps, batch.jobs);
  const counts = await unreadCounts(deps.db, batch.shown);
  for (const [userId, count] of counts) deps.realtime.toUser(userId, 'notifications:unread', { count });
  return { told: batch.shown.length, pushes: batch.pushes, next: batch.next };
}

export const notificationHandlers: QueueHandlers<'notifications'> = {
  'deliver-notification': (job, deps) => deliver(deps, job.data),
  'deliver-notifications': (job, deps) => deliverMany(deps, job.data),
  'send-push': (job, deps) => sendPush(deps, job.data),
};

export const fanOutHandlers: QueueHandlers<'notify-fanout'> = {
  'deliver-notification': (job, deps) => deliver(deps, job.data),
  'send-push': (job, deps) => sendPush(deps, job.data),
  'fan-out-post': (job, deps) => fanOut(deps, job.data.postId, job.data.after),
};

export const pushBatchHandlers: QueueHandlers<'notify-push'> = {
  'send-push-batch': (job, deps) => sendPushBatch(deps, job.data.batch),
};
