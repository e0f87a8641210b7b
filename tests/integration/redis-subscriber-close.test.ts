import { Redis } from 'ioredis';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { disconnectSubscriber } from '../../core/redis';
import { startPrivateRedis } from '../helpers/private-redis';

// A server shutting down just as Redis came back: ioredis has re-sent the subscriber's
// subscriptions (dropping their promises), and cutting the link before Redis answers them used to
// leave two unhandled rejections ('Connection is closed.'), which crash a Node process by default.
let stopRedis: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopRedis?.();
  stopRedis = undefined;
});

/**
 * A TCP relay to Redis that can hold back Redis's answers for a while, as a slow network would,
 * and cut every link it carries, as a dropped connection would.
 */
async function relayTo(port: number) {
  let holdUntil = 0;
  const links = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    links.add(client);
    client.on('close', () => links.delete(client));
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      const wait = holdUntil - Date.now();
      if (wait > 0) setTimeout(() => client.write(chunk), wait);
      else client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as AddressInfo).port,
    holdAnswers: (ms: number) => (holdUntil = Date.now() + ms),
    cutLinks: () => links.forEach((link) => link.destroy()),
    close: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  };
}

/**
 * A subscriber whose link dropped and came back, with its subscriptions sent again and their
 * answers still on the way (held back for `holdMs`).
 */
async function resubscribingSubscriber(holdMs: number) {
  const redis = await startPrivateRedis();
  const relay = await relayTo(redis.port);
  stopRedis = async () => {
    await relay.close();
    await redis.stop();
  };
  // no ready check, so that 'ready' (and the resubscription) comes as soon as the link is back
  const sub = new Redis(relay.port, '127.0.0.1', { maxRetriesPerRequest: null, enableReadyCheck: false, retryStrategy: () => 20 });
  sub.on('error', () => {});
  await sub.psubscribe('events#*');
  await sub.subscribe('requests', 'responses');
  const readyAgain = new Promise<void>((resolve) => sub.once('close', () => sub.once('ready', () => resolve())));
  relay.holdAnswers(holdMs);
  relay.cutLinks();
  await readyAgain;
  return sub;
}

async function rejectionsDuring(act: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await act();
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}

describe('closing a subscriber that is resubscribing', () => {
  it('a plain disconnect leaves the resubscriptions unanswered (what the helper exists for)', async () => {
    const sub = await resubscribingSubscriber(500);
    const seen = await rejectionsDuring(async () => sub.disconnect());
    expect(seen.map((e) => (e as Error).message)).toContain('Connection is closed.');
  });

  it('disconnectSubscriber waits for their answers and leaves no rejection', async () => {
    const sub = await resubscribingSubscriber(300);
    const seen = await rejectionsDuring(() => disconnectSubscriber(sub));
    expect(seen).toEqual([]);
    expect(sub.status).toBe('end');
  });
});
