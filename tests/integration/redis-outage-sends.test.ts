import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueName } from '../../common/jobs';
import type { MessageDto } from '../../common/message-dtos';
import { relayOutbox } from '../../core/outbox/outbox';
import { createQueues } from '../../core/queues/queues';
import { createRedis } from '../../core/redis';
import { makeUser } from '../helpers/factories';
import { openMessagesPage, sendMessage as send } from '../helpers/messages-page';
import { startOperatorStack, type OperatorStack } from '../helpers/operator-stack';
import { waitFor } from '../helpers/tus';

// Issue 44 item 3.2: several messages sent one after another while Redis is down all succeed
// (the server stops waiting on a Redis it knows is down instead of queueing each command behind
// the dead connection), and nothing of them is lost: the open page gets each after the outage
// through `resync`, and their notifications' outbox rows are queued by the relay once Redis is back.
// No timing is asserted (the project forbids it); REPORT_SEND_MS=1 prints each send's time.
let stack: OperatorStack;

beforeAll(async () => {
  stack = await startOperatorStack('redis-outage-sends');
}, 60_000);
afterAll(() => stack?.stop());

describe('messages sent one after another while Redis is down', () => {
  it('all succeed, reach the open page after the outage, and their pending work is queued once Redis is back', async () => {
    const sender = await makeUser(stack.database.db);
    const reader = await makeUser(stack.database.db);
    const asSender = (await stack.signedIn(sender)).client;
    const asReader = await stack.signedIn(reader);

    // the reader's open page: live events, and the catch-up it runs when told `resync`
    const page = await openMessagesPage(stack.url, asReader);
    const { seen } = page;
    try {
      const first = await send(asSender, reader.username, 'before the outage');
      expect(first.status).toBe(200);
      await waitFor(async () => seen.has(first.message!.id), 5_000, 'the first message to arrive live');

      await stack.redis.stop();
      const during: MessageDto[] = [];
      const times: number[] = [];
      for (let i = 0; i < 8; i++) {
        const r = await send(asSender, reader.username, `during the outage ${i}`);
        expect(r.status).toBe(200);
        during.push(r.message!);
        times.push(r.ms);
      }
      if (process.env.REPORT_SEND_MS) console.info(`messages.send during the outage (ms): ${times.join(', ')}`);
      // every message is stored, and so is the work that follows it (the notification's outbox rows)
      const stored = await stack.database.db.selectFrom('messages').select('id').where('sender_id', '=', sender.id).execute();
      expect(stored.map((m) => m.id).sort()).toEqual([first.message!.id, ...during.map((m) => m.id)].sort());
      const pending = await stack.database.db.selectFrom('outbox').select('job_id').where('done_at', 'is', null).execute();
      expect(pending.length).toBeGreaterThan(0);
      expect(page.connected()).toBe(true);

      await stack.redis.start();
      // the page catches up on every message of the outage (told `resync` once the server's Redis is back)
      await waitFor(async () => during.every((m) => seen.has(m.id)), 20_000, 'every message of the outage to reach the open page').catch(() => undefined);
      expect(during.filter((m) => !seen.has(m.id)).map((m) => m.content)).toEqual([]);

      // the relay (every worker's keeper) queues the outbox rows of the outage: nothing was only in Redis
      const connection = createRedis(stack.redis.url, { commandTimeoutMs: 1_000 });
      const queues = createQueues(connection, stack.prefix);
      try {
        await relayOutbox({ db: stack.database.db, queues, log: pino({ level: 'silent' }) }, 0);
        for (const { job_id } of pending) {
          const row = await stack.database.db.selectFrom('outbox').select(['queue', 'done_at']).where('job_id', '=', job_id).executeTakeFirstOrThrow();
          if (row.done_at) continue;
          expect(await queues[row.queue as QueueName].getJobState(job_id), job_id).not.toBe('unknown');
        }
      } finally {
        await queues.close();
        connection.disconnect();
      }
    } finally {
      page.close();
    }
  }, 120_000);
});
