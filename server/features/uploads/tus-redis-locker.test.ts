import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisLocker } from './tus-redis-locker';

// Two lockers on two connections stand for two server copies.
const prefix = `tus-locker-${process.pid}`;
const a = new Redis({ maxRetriesPerRequest: 1 });
const b = new Redis({ maxRetriesPerRequest: 1 });
afterAll(async () => {
  const keys = await a.keys(`${prefix}:*`);
  if (keys.length) await a.del(...keys);
  a.disconnect();
  b.disconnect();
});

describe('tus locks in Redis', () => {
  it('makes a second copy wait for the lock, asks the holder to let go, and gets it once released', async () => {
    const first = new RedisLocker(a, prefix).newLock('upload-1');
    let askedToRelease = false;
    await first.lock(new AbortController().signal, () => {
      askedToRelease = true;
    });

    const second = new RedisLocker(b, prefix).newLock('upload-1');
    let acquired = false;
    const waiting = second.lock(new AbortController().signal, () => {}).then(() => (acquired = true));

    // the holder hears the request at its next heartbeat (250 ms); the lock is still its own
    await expect.poll(() => askedToRelease, { timeout: 3_000 }).toBe(true);
    expect(acquired).toBe(false);
    await first.unlock();
    await waiting;
    expect(acquired).toBe(true);
    await second.unlock();
    expect(await a.exists(`${prefix}:tus-lock:{upload-1}`)).toBe(0);
  });

  it('gives up when the request is aborted while waiting, and never unlocks a lock it does not hold', async () => {
    const holder = new RedisLocker(a, prefix).newLock('upload-2');
    await holder.lock(new AbortController().signal, () => {});
    const waiter = new RedisLocker(b, prefix, 5_000).newLock('upload-2');
    const abort = new AbortController();
    const attempt = waiter.lock(abort.signal, () => {});
    setTimeout(() => abort.abort(), 100);
    await expect(attempt).rejects.toMatchObject({ status_code: 500 });
    // the waiter's unlock must not free the holder's lock
    await waiter.unlock();
    expect(await a.exists(`${prefix}:tus-lock:{upload-2}`)).toBe(1);
    await holder.unlock();
  });

  it('lets a read (HEAD) go on without the lock while Redis is unreachable, and refuses a write', async () => {
    // a connection to a port nothing listens on, failing as the app's connections do in an outage
    const down = new Redis({ port: 1, lazyConnect: true, maxRetriesPerRequest: 1, commandTimeout: 500, retryStrategy: () => 50 });
    down.on('error', () => {});
    try {
      const locker = new RedisLocker(down, prefix);
      const read = locker.forRead.newLock('upload-3');
      await read.lock(new AbortController().signal, () => {});
      await read.unlock();
      await expect(locker.newLock('upload-3').lock(new AbortController().signal, () => {})).rejects.toThrow();
    } finally {
      down.disconnect();
    }
  });

  it('on drain, asks every request holding a lock of this copy to let go, and each that takes one afterwards', async () => {
    const locker = new RedisLocker(a, prefix);
    const released: string[] = [];
    const held = locker.newLock('upload-4');
    await held.lock(new AbortController().signal, () => void released.push('held'));
    const done = locker.newLock('upload-5');
    await done.lock(new AbortController().signal, () => void released.push('done'));
    await done.unlock();
    expect(released).toEqual([]);
    locker.drain();
    expect(released).toEqual(['held']);
    const late = locker.newLock('upload-6');
    await late.lock(new AbortController().signal, () => void released.push('late'));
    expect(released).toEqual(['held', 'late']);
    await held.unlock();
    await late.unlock();
  });
});
