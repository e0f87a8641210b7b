import { sql } from 'kysely';
import { pushBatchJobId } from '../../common/jobs';
import type { DB } from '../../core/db/kysely';
import { addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';

/** One push of a fan-out batch: which notification, to which browser. */
export interface PushPair {
  notificationId: string;
  subscriptionId: string;
}

/**
 * A fan-out batch's pushes, in the batch's transaction: a push_sends row per (notification,
 * browser), unsent, and the one `send-push-batch` outbox row that sends them (on `notify-push`,
 * a queue of their own: never ahead of the batches' rows, never on `notifications`). A batch written again (its job retried) adds
 * no row and no job: the pairs and the jobId are the same.
 */
export async function addPushSends(trx: DB, batch: string, pairs: PushPair[]): Promise<QueuedEntry[]> {
  if (pairs.length === 0) return [];
  await sql`insert into push_sends (notification_id, subscription_id, batch)
    select n, s, ${batch} from unnest(${pairs.map((p) => p.notificationId)}::uuid[], ${pairs.map((p) => p.subscriptionId)}::uuid[]) as t(n, s)
    on conflict (notification_id, subscription_id) do nothing`.execute(trx);
  return [await addToOutbox(trx, { queue: 'notify-push', name: 'send-push-batch', data: { batch }, jobId: pushBatchJobId(batch) })];
}

/**
 * The batch's pushes not sent yet, each with its browser (a browser forgotten since took its rows
 * with it). The guard of exactly once: a batch run again after a partial failure, or after Redis
 * forgot its job, sends only these.
 */
export function unsentPushes(db: DB, batch: string) {
  return db
    .selectFrom('push_sends as p')
    .innerJoin('push_subscriptions as b', 'b.id', 'p.subscription_id')
    .select(['p.notification_id', 'b.id', 'b.user_id', 'b.endpoint', 'b.p256dh', 'b.auth'])
    .where('p.batch', '=', batch)
    .where('p.sent_at', 'is', null)
    .orderBy('p.subscription_id')
    .execute();
}

/** These pushes went (or were skipped for good): a run of the batch again leaves them alone. */
export async function markPushesSent(db: DB, pairs: PushPair[], now: Date): Promise<void> {
  if (pairs.length === 0) return;
  await sql`update push_sends p set sent_at = ${now}
    from unnest(${pairs.map((p) => p.notificationId)}::uuid[], ${pairs.map((p) => p.subscriptionId)}::uuid[]) as t(n, s)
    where p.notification_id = t.n and p.subscription_id = t.s and p.sent_at is null`.execute(db);
}
