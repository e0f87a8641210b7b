/**
 * A redis-server of the test's own, for the tests that take Redis away: on a free port of the
 * tests' range, empty (no snapshot, no AOF), stopped as a crash stops it and started again empty
 * on the same port (a restart without persistence).
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { freePort } from './processes';

export interface PrivateRedis {
  port: number;
  /** redis://127.0.0.1:<port> */
  url: string;
  /** kills it (SIGKILL: every client's connection drops at once, nothing is saved) and waits until it is gone; nothing when stopped */
  stop(): Promise<void>;
  /** starts it again on the same port, empty; resolves once it answers PING */
  start(): Promise<void>;
  /** stop(), then start() */
  restart(): Promise<void>;
  running(): boolean;
}

/** A private redis-server, up and answering. Stop it in the test's teardown (stop() is safe to call twice). */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let server: { stop(): Promise<void> } | null = await startRedisServer(port);
  const redis: PrivateRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const stopping = server;
      server = null;
      await stopping?.stop();
    },
    async start() {
      if (server) throw new Error(`the private redis-server on ${port} is running already`);
      server = await startRedisServer(port);
    },
    async restart() {
      await redis.stop();
      await redis.start();
    },
    running: () => server !== null,
  };
  return redis;
}

/**
 * Waits until every connection is ready again after a restart (each reconnects on its own back-off,
 * up to 2 s apart) and has answered what it sent on reconnecting (a subscriber's subscriptions: a
 * PING sent after them is answered after them). Closing one before would fail those commands,
 * whose promises ioredis keeps to itself: unhandled 'Connection is closed.' rejections.
 */
export async function untilAnswering(connections: Pick<Redis, 'status' | 'ping'>[], timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!connections.every((c) => c.status === 'ready')) {
    if (Date.now() > deadline) throw new Error(`Redis connections not ready within ${timeoutMs / 1000} s: ${connections.map((c) => c.status).join(', ')}`);
    await sleep(20);
  }
  await Promise.all(connections.map((c) => c.ping()));
}

/** Ready once it answers PING; one that exits first (the port taken) fails at once with what it said. */
async function startRedisServer(port: number): Promise<{ stop(): Promise<void> }> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server did not start on ${port}: ${output.trim().split('\n').slice(-3).join(' | ')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not answer on ${port} within 30 s`);
    }
    await sleep(50);
  }
  return {
    async stop() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Whether a Redis on `port` answers PING with PONG now. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      reply += d;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
