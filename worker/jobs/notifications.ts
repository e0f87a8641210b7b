import { fanOutPostJobId, sendPushJobId, type NotificationJobs } from '../../common/jobs';
import { sendWebPush, vapidOf } from '../../core/push/web-push';
import { withinCap } from '../../domain/notifications/caps';
import { fanOutBatch, unreadCounts } from '../../domain/notifications/fan-out';
import { unreadNotificationCount } from '../../domain/notifications/notify';
import { findNotificationRows, pushPayloadOf } from '../../domain/notifications/rows';
import type { QueueHandlers, WorkerDeps } from '../registry';

/**
 * Delivery of a notification notify() wrote (issue 28): its user's tabs hear the new unread count,
 * and with push on, one `send-push` per browser, on the same queue as this job (the fan-out's
 * pushes stay on `notify-fanout`).
 */
async function deliver(deps: WorkerDeps, data: NotificationJobs['deliver-notification']) {
  const row = await deps.db.selectFrom('notifications').select(['id', 'user_id', 'shown', 'actor_count']).where('id', '=', data.notificationId).executeTakeFirst();
  if (!row) return { skipped: 'gone' };
  if (row.shown) deps.realtime.toUser(row.user_id, 'notifications:unread', { count: await unreadNotificationCount(deps.db, row.user_id) });
  if (!data.push || !vapidOf(deps.config)) return { pushed: 0 };
  const browsers = await deps.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', row.user_id).execute();
  await deps.queues.notifications.addBulk(
    browsers.map((b) => ({
      name: 'send-push',
      data: { notificationId: row.id, subscriptionId: b.id },
      opts: { jobId: sendPushJobId(row.id, b.id, row.actor_count), ...(data.pushDelayMs ? { delay: data.pushDelayMs } : {}) },
    })),
  );
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
  const outcome = await sendWebPush(vapid, browser, JSON.stringify(payload), deps.config.PUSH_ALLOW_LOCAL_ENDPOINTS);
  if (outcome === 'gone') await deps.db.deleteFrom('push_subscriptions').where('id', '=', browser.id).execute();
  return { outcome };
}

/** One batch of a new post's subscribers; the next batch is its own job, queued first. */
async function fanOut(deps: WorkerDeps, postId: string, after: string | null) {
  const batch = await fanOutBatch(deps.db, postId, after, deps.clock.now());
  if (!batch) return { skipped: 'not visible' };
  // the next batch goes to the front of the queue: behind this batch's pushes (and every earlier
  // batch's) the last rows of a 10,000-subscriber post waited 374 s instead of seconds (bench notify-fanout)
  if (batch.next) await deps.queues.add('notify-fanout', 'fan-out-post', { postId, after: batch.next }, { jobId: fanOutPostJobId(postId, batch.next), lifo: true });
  const counts = await unreadCounts(deps.db, batch.shown);
  for (const [userId, count] of counts) deps.realtime.toUser(userId, 'notifications:unread', { count });
  if (batch.pushes.length && vapidOf(deps.config)) {
    await deps.queues['notify-fanout'].addBulk(
      batch.pushes.map((p) => ({ name: 'send-push', data: { notificationId: p.notificationId, subscriptionId: p.subscriptionId }, opts: { jobId: sendPushJobId(p.notificationId, p.subscriptionId, 1) } })),
    );
  }
  return { told: batch.shown.length, pushes: batch.pushes.length, next: batch.next };
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
