import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCluster } from '../../core/redis';
import { makeSubscription, makeUser } from '../helpers/factories';
import { redisServerAvailable, startRedisCluster, type RunningRedisCluster } from '../helpers/redis-cluster';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';

/**
 * Issue 50 item 6: the app and its workers on a Redis Cluster of three masters (REDIS_CLUSTER_NODES,
 * started here from the system's redis-server) instead of one Redis. A message to many runs its
 * chain of batches (each next batch an outbox row written with the batch before, queued after the
 * commit) and the notifications they queue, through BullMQ on the cluster, to every fan; the
 * sign-in limit counts the address and the account (two keys, two slots) on it.
 */
const available = await redisServerAvailable();
if (!available) console.warn('redis-cluster.test.ts skipped: redis-server (and redis-cli) are not installed, so no Redis Cluster can be started here');

describe.skipIf(!available)('on a Redis Cluster of three masters', () => {
  let cluster: RunningRedisCluster;
  let app: TestServer;

  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    app = await startTestServer({ env: { REDIS_CLUSTER_NODES: cluster.nodes, MASS_MESSAGE_BATCH_SIZE: '3' } });
  });
  afterAll(async () => {
    await app?.close();
    await cluster?.stop();
  });

  it('runs a message to many batch after batch through the outbox and the queues on the cluster, to every fan once', async () => {
    expect(isCluster(app.deps.redis)).toBe(true);
    // every key of a queue in one slot: the prefix is a hash tag
    expect(app.deps.queues['mass-messages'].opts.prefix).toBe(`{${app.deps.config.REDIS_PREFIX}}`);
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fans: string[] = [];
    for (let i = 0; i < 7; i++) {
      const fan = await makeUser(app.deps.db);
      await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: creator.id });
      fans.push(fan.id);
    }
    const asCreator = await clientAs(app, creator.id);
    const { id } = await asCreator.trpc.massMessages.create.mutate({ audience: 'active', content: 'To each of you', clientId: `cluster-${randomUUID().slice(0, 8)}` });

    const status = () => app.deps.db.selectFrom('mass_messages').select(['status', 'recipients_total']).where('id', '=', id).executeTakeFirstOrThrow();
    await expect.poll(status, { timeout: 30_000, interval: 200 }).toEqual({ status: 'sent', recipients_total: 7 });
    const copies = await app.deps.db.selectFrom('messages').select('recipient_id').where('mass_message_id', '=', id).execute();
    expect(copies.map((c) => c.recipient_id).sort()).toEqual(fans.sort());
    // three batches (3, 3, 1), each an outbox row the worker marked done; nothing left for the relay
    const rows = () => app.deps.db.selectFrom('outbox').select(['name', 'done_at']).where('queue', '=', 'mass-messages').execute();
    await expect.poll(async () => (await rows()).filter((r) => r.done_at === null).length, { timeout: 10_000 }).toBe(0);
    expect((await rows()).filter((r) => r.name === 'deliver-mass-message').length).toBeGreaterThanOrEqual(3);
    // the batches' jobs completed on the cluster
    expect(await app.deps.queues['mass-messages'].getJobCountByTypes('completed')).toBeGreaterThanOrEqual(3);
  });

  it('counts sign-in attempts per address and per account on the cluster: the eleventh in a minute is refused', async () => {
    const user = await makeUser(app.deps.db);
    const client = app.client();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await client.fetch('/trpc/auth.signIn', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ json: { email: user.email, password: 'not the password' } }) });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401 || s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
