import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { unavailableDependency } from '../../../core/dependency-errors';

/** The lock's key; its `:release` key shares the hash tag, so the scripts over both run on a Redis Cluster too. */
const lockKey = (prefix: string, id: string) => `${prefix}:tus-lock:{${id}}`;

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
 *
 * Reads (HEAD) take the lock too, which makes an older request let go before the offset is read;
 * with Redis unreachable a read goes on without it (`forRead`): the offset is the file's size on
 * disk, which a client needs to resume, while a write without the lock is refused (503, retried).
 *
 * On shutdown (`drain`) every request holding a lock of this copy is asked to let go, as a newer
 * request would: tus stops reading its body within the drain time and answers with the offset it
 * has, and the client resumes on another copy.
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
  /** the requests of this copy holding a lock, by the release tus gave each */
  private readonly holders = new Set<RequestRelease>();
  private draining = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly acquireTimeoutMs = 30_000,
  ) {}

  newLock(id: string): Lock {
    return new RedisLock(this.redis, lockKey(this.prefix, id), this.acquireTimeoutMs, this.holding, false);
  }

  /** The same locks for requests that only read (HEAD): without Redis they go on unlocked. */
  readonly forRead: Locker = { newLock: (id) => new RedisLock(this.redis, lockKey(this.prefix, id), this.acquireTimeoutMs, this.holding, true) };

  /** Asks every request holding a lock here to let go, and each that takes one from now on. */
  drain(): void {
    this.draining = true;
    for (const release of this.holders) void release();
  }

  private readonly holding: Holding = {
    add: (release) => {
      this.holders.add(release);
      if (this.draining) void release();
    },
    delete: (release) => void this.holders.delete(release),
  };
}

interface Holding {
  add(release: RequestRelease): void;
  delete(release: RequestRelease): void;
}

class RedisLock implements Lock {
  private readonly token = randomBytes(16).toString('hex');
  private heartbeat: NodeJS.Timeout | null = null;
  private release: RequestRelease | null = null;
  /** a read that went on without the lock (Redis unreachable): nothing to unlock */
  private unlocked = false;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly acquireTimeoutMs: number,
    private readonly holding: Holding,
    private readonly readOnly: boolean,
  ) {}

  private get releaseKey() {
    return `${this.key}:release`;
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    try {
      await this.acquire(signal, requestRelease);
    } catch (error) {
      if (!this.readOnly || unavailableDependency(error) !== 'redis') throw error;
      this.unlocked = true;
      return;
    }
    this.release = requestRelease;
    this.holding.add(requestRelease);
  }

  private async acquire(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
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
    if (this.release) this.holding.delete(this.release);
    this.release = null;
    if (this.unlocked) return;
    try {
      await this.redis.eval(UNLOCK, 2, this.key, this.releaseKey, this.token);
    } catch (error) {
      // a read is answered even if Redis went away meanwhile: the key expires by itself
      if (!this.readOnly || unavailableDependency(error) !== 'redis') throw error;
    }
  }
}
