import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueName } from '../../common/jobs';
import type { MessageDto } from '../../common/message-dtos';
import type { ClientToServerEvents, ServerToClientEvents } from '../../common/socket-events';
import { relayOutbox } from '../../core/outbox/outbox';
import { createQueues } from '../../core/queues/queues';
import { createRedis } from '../../core/redis';
import { makeSessionCookie, makeUser, type MadeUser } from '../helpers/factories';
import { freePort, killGroup, processClient, startProcess, startRedisServer, trpcMutation, waitUntilReady, type AppProcess } from '../helpers/processes';
import { createTestDb, type TestDatabase } from '../helpers/test-db';
import type { TestClient } from '../helpers/test-server';
import { waitFor } from '../helpers/tus';

// Issue 44 item 3.2: several messages sent one after another while Redis is down all succeed
// (the server stops waiting on a Redis it knows is down instead of queueing each command behind
// the dead connection), and nothing of them is lost: the open page gets each after the outage
// through `resync`, and their notifications' outbox rows are queued by the relay once Redis is back.
// No timing is asserted (the project forbids it); REPORT_SEND_MS=1 prints each send's time.
let database: TestDatabase;
let work: string;
let redisPort: number;
let redis: { stop(): Promise<void> };
let server: AppProcess;
let url: string;
const prefix = `redis-outage-sends-${process.pid}`;

beforeAll(async () => {
  database = await createTestDb();
  work = await mkdtemp(path.join(tmpdir(), 'redis-outage-sends-'));
  redisPort = await freePort();
  redis = await startRedisServer(redisPort);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  server = startProcess('scripts/serve.ts', {
    DATABASE_URL: database.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    REDIS_PREFIX: prefix,
    APP_URL: url,
    STORAGE_DIR: path.join(work, 'storage'),
    UPLOADS_DIR: path.join(work, 'incoming'),
    OUTBOX_DIR: path.join(work, 'outbox'),
    PORT: String(port),
    RUN_WORKER: 'false',
  });
  await waitUntilReady(url);
}, 60_000);

afterAll(async () => {
  if (server?.alive()) server.child.kill('SIGTERM');
  await server?.exited;
  killGroup(server?.child.pid);
  await redis?.stop();
  await database?.destroy();
  if (work) await rm(work, { recursive: true, force: true });
});

async function signedIn(user: MadeUser) {
  const { token } = await makeSessionCookie(database.db, user.id);
  return { token, client: processClient(url, token) };
}

async function send(client: TestClient, username: string, content: string) {
  const res = await trpcMutation(client, 'messages.send', { username, content, clientId: randomUUID() });
  const body = res.body as { result?: { data: { json: MessageDto } } };
  return { status: res.status, ms: res.ms, message: body.result?.data.json ?? null };
}

describe('messages sent one after another while Redis is down', () => {
  it('all succeed, reach the open page after the outage, and their pending work is queued once Redis is back', async () => {
    const sender = await makeUser(database.db);
    const reader = await makeUser(database.db);
    const asSender = (await signedIn(sender)).client;
    const asReader = await signedIn(reader);

    // the reader's open page: live events, and the catch-up it runs when told `resync`
    const seen = new Set<string>();
    let newest: string | null = null;
    const note = (m: MessageDto) => {
      seen.add(m.id);
      newest = m.id;
    };
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(url, {
      transports: ['websocket'],
      extraHeaders: { origin: url, cookie: `session=${asReader.token}` },
      reconnection: false,
    });
    socket.on('message:new', ({ message }) => note(message));
    socket.on('resync', () => {
      void (async () => {
        for (let more = true; more && newest; ) {
          const input = encodeURIComponent(JSON.stringify({ json: { afterId: newest } }));
          const res = await asReader.client.fetch(`/trpc/messages.since?input=${input}`);
          const page = ((await res.json()) as { result: { data: { json: { messages: MessageDto[]; hasMore: boolean } } } }).result.data.json;
          page.messages.forEach(note);
          more = page.hasMore && page.messages.length > 0;
        }
      })();
    });
    try {
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('connect_error', reject));
      const first = await send(asSender, reader.username, 'before the outage');
      expect(first.status).toBe(200);
      await waitFor(async () => seen.has(first.message!.id), 5_000, 'the first message to arrive live');

      await redis.stop();
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
      const stored = await database.db.selectFrom('messages').select('id').where('sender_id', '=', sender.id).execute();
      expect(stored.map((m) => m.id).sort()).toEqual([first.message!.id, ...during.map((m) => m.id)].sort());
      const pending = await database.db.selectFrom('outbox').select('job_id').where('done_at', 'is', null).execute();
      expect(pending.length).toBeGreaterThan(0);
      expect(socket.connected).toBe(true);

      redis = await startRedisServer(redisPort);
      // the page catches up on every message of the outage (told `resync` once the server's Redis is back)
      await waitFor(async () => during.every((m) => seen.has(m.id)), 20_000, 'every message of the outage to reach the open page').catch(() => undefined);
      expect(during.filter((m) => !seen.has(m.id)).map((m) => m.content)).toEqual([]);

      // the relay (every worker's keeper) queues the outbox rows of the outage: nothing was only in Redis
      const connection = createRedis(`redis://127.0.0.1:${redisPort}`, { commandTimeoutMs: 1_000 });
      const queues = createQueues(connection, prefix);
      try {
        await relayOutbox({ db: database.db, queues, log: pino({ level: 'silent' }) }, 0);
        for (const { job_id } of pending) {
          const row = await database.db.selectFrom('outbox').select(['queue', 'done_at']).where('job_id', '=', job_id).executeTakeFirstOrThrow();
          if (row.done_at) continue;
          expect(await queues[row.queue as QueueName].getJobState(job_id), job_id).not.toBe('unknown');
        }
      } finally {
        await queues.close();
        connection.disconnect();
      }
    } finally {
      socket.disconnect();
    }
  }, 120_000);
});
