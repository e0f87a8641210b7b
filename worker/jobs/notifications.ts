import { sendPushJobId, type NotificationJobs } from '../../common/jobs';
import { addManyToOutbox, dispatchOutbox } from '../../core/outbox/outbox';
import { sendWebPush, vapidOf } from '../../core/push/web-push';
import { withinCap } from '../../domain/notifications/caps';
import { fanOutBatch, unreadCounts } from '../../domain/notifications/fan-out';
import { unreadNotificationCount } from '../../domain/notifications/notify';
import { findNotificationRows, pushPayloadOf } from '../../domain/notifications/rows';
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
  const pushes = await addManyToOutbox(
    deps.db,
    browsers.map((b) => ({
      queue: 'notifications' as const,
      name: 'send-push' as const,
      data: { notificationId: row.id, subscriptionId: b.id },
      jobId: sendPushJobId(row.id, b.id, row.actor_count),
      ...(data.pushDelayMs ? { delayMs: data.pushDelayMs } : {}),
    })),
  );
  await dispatchOutbox(deps, pushes);
  return { pushed: browsers.length };
}

/**
 * One push to one browser: what happened and who (never a message's text), unless the row was read
 * meanwhile (a message read in its open thread) or the user had their hour's pushes. A browser the
 * push service no longer knows (404, 410) is forgotten; other failures retry (the queue's attempts).
 */
async function sendPush(deps: WorkerDeps, data: NotificationJobs['send-push']) {
  const vapid = vapidOf(deps.config);
  const browser = await deps.db.selectFrom('push_subscriptions').selectAll().where('id', '=', data.subscriptionId).executeTakeFirst();
  if (!vapid || !browser) return { skipped: 'no browser' };
  const [row] = await findNotificationRows(deps.db, { userId: browser.user_id, id: data.notificationId, limit: 1 });
  if (!row) return { skipped: 'gone' };
  if (row.read_at) return { skipped: 'read' };
  const payload = pushPayloadOf(row);
  if (!payload) return { skipped: 'unknown kind' };
  if (!(await withinCap(deps.redis, deps.config.REDIS_PREFIX, 'push', browser.user_id, row.id, deps.clock.now()))) return { skipped: 'cap' };
  const outcome = await sendWebPush(vapid, browser, JSON.stringify(payload), { allowLocal: deps.config.PUSH_ALLOW_LOCAL_ENDPOINTS });
  if (outcome === 'gone') await deps.db.deleteFrom('push_subscriptions').where('id', '=', browser.id).execute();
  return { outcome };
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
  'send-push': (job, deps) => sendPush(deps, job.data),
};

export const fanOutHandlers: QueueHandlers<'notify-fanout'> = {
  'deliver-notification': (job, deps) => deliver(deps, job.data),
  'send-push': (job, deps) => sendPush(deps, job.data),
  'fan-out-post': (job, deps) => fanOut(deps, job.data.postId, job.data.after),
};
