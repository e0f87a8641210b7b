import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * tus locks shared by every server copy through Redis, so the requests of one upload may reach any
 * copy (no sticky routing): the lock is a key `<prefix>:tus-lock:<uploadId>` set with NX to a
 * random token, with a short expiry its holder keeps extending while its request runs, so the lock
 * of a copy that died frees itself within LOCK_TTL_MS.
 *
 * tus asks a lock holder to let go when a newer request for the same upload arrives (the older
 * one is often a half-open connection of a client that has since resumed): here the newcomer
 * sets `<lock>:release`, which the holder reads at its next heartbeat and passes on to tus
 * (which then ends the older request after its drain time). A holder that finds its lock gone
 * (expired while Redis or the process stalled) ends its request too, so two writers never
 * append to one file.
 */
export const LOCK_TTL_MS = 10_000;
const HEARTBEAT_MS = 250;
const RETRY_MS = 20;
const ASK_AGAIN_MS = 1_000;

// extends the lock if it is still ours; answers 0 (lost), 1 (held), 2 (held, release asked)
const REFRESH = `
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('pexpire', KEYS[1], ARGV[2])
if redis.call('exists', KEYS[2]) == 1 then return 2 end
return 1`;
// deletes the lock and any release request only if the lock is still ours
const UNLOCK = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1], KEYS[2])
  return 1
end
return 0`;

export class RedisLocker implements Locker {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly acquireTimeoutMs = 30_000,
  ) {}

  newLock(id: string): Lock {
    return new RedisLock(this.redis, `${this.prefix}:tus-lock:${id}`, this.acquireTimeoutMs);
  }
}

class RedisLock implements Lock {
  private readonly token = randomBytes(16).toString('hex');
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly acquireTimeoutMs: number,
  ) {}

  private get releaseKey() {
    return `${this.key}:release`;
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.acquireTimeoutMs;
    let asked = false;
    let askedAt = 0;
    for (;;) {
      if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
      const got = await this.redis.set(this.key, this.token, 'PX', LOCK_TTL_MS, 'NX');
      if (got === 'OK') break;
      if (Date.now() - askedAt > ASK_AGAIN_MS) {
        // the holder (on whichever copy) hears this within a heartbeat; asked again now and then,
        // as a holder that took the lock meanwhile clears the request meant for its predecessor
        await this.redis.set(this.releaseKey, '1', 'PX', LOCK_TTL_MS);
        asked = true;
        askedAt = Date.now();
      }
      if (Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    // a release asked of the previous holder is not meant for us
    if (asked) await this.redis.del(this.releaseKey);
    let released = false;
    this.heartbeat = setInterval(() => {
      this.redis
        .eval(REFRESH, 2, this.key, this.releaseKey, this.token, String(LOCK_TTL_MS))
        .then((state) => {
          if ((state === 0 || state === 2) && !released) {
            released = true;
            void requestRelease();
          }
        })
        .catch(() => {
          // Redis unreachable: keep the request going while the key has not expired; the next
          // heartbeat tells whether it did
        });
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async unlock(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    await this.redis.eval(UNLOCK, 2, this.key, this.releaseKey, this.token);
  }
}
