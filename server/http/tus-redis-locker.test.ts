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
    expect(await a.exists(`${prefix}:tus-lock:upload-1`)).toBe(0);
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
    expect(await a.exists(`${prefix}:tus-lock:upload-2`)).toBe(1);
    await holder.unlock();
  });
});
