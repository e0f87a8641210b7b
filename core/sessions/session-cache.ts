import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import { throttledReporter } from '../dependency-errors';
import { sessionCacheChannel } from '../realtime/emitter';
import type { ForgetSessions, Realtime } from '../realtime/realtime';
import { disconnectSubscriber, duplicateRedis } from '../redis';
import type { ResolvedSession } from './resolved-session';

/**
 * How long a copy answers a session from memory before reading it again. It bounds what a copy
 * that missed a forget (its Redis subscriber not yet aware of a dead connection) can get wrong.
 */
export const SESSION_CACHE_MS = 5_000;
/** A bound on memory: past it, the oldest entries go first. */
const MAX_ENTRIES = 20_000;

/**
 * Sessions this server copy resolved in the last SESSION_CACHE_MS, so that a signed-in request
 * costs no PostgreSQL round trip for its cookie (server/auth/resolve-session.ts). Each process
 * builds one with its deps (core/create-deps.ts: AppDeps.sessionCache).
 *
 * It is only ever right because it is told: whoever ends a session or changes a user's signed-in
 * details (USER_DTO_COLUMNS) calls `realtime.disconnectSessions` or `realtime.forgetSessions`
 * after the commit, which reaches this copy at once and every other copy through Redis
 * (`listenForForgets`). While this copy cannot hear Redis, it caches nothing: a forget it might
 * miss can never leave a session alive.
 */
export interface SessionCache {
  /** the resolved session, when one was cached less than SESSION_CACHE_MS ago and nothing since said to forget it */
  get(sessionId: string): ResolvedSession | undefined;
  /**
   * Take this before reading a session from the database and hand it to `set`: a read that a
   * forget overtook (it may have seen the row before the commit that ended it) is not cached.
   */
  version(): number;
  set(sessionId: string, resolved: ResolvedSession, version: number): void;
  forget(which: ForgetSessions): void;
  forgetAll(): void;
  /** whether this copy hears the forgets of the others (off: nothing is cached) */
  setListening(on: boolean): void;
  listening(): boolean;
}

export function createSessionCache(opts: { ttlMs?: number; now?: () => number } = {}): SessionCache {
  const ttlMs = opts.ttlMs ?? SESSION_CACHE_MS;
  const now = opts.now ?? Date.now;
  const entries = new Map<string, { resolved: ResolvedSession; until: number }>();
  const byUser = new Map<string, Set<string>>();
  let listening = false;
  let version = 0;

  const drop = (sessionId: string) => {
    const entry = entries.get(sessionId);
    if (!entry) return;
    entries.delete(sessionId);
    const userId = entry.resolved.user.id;
    const ids = byUser.get(userId);
    ids?.delete(sessionId);
    if (ids?.size === 0) byUser.delete(userId);
  };
  const clear = () => {
    version += 1;
    entries.clear();
    byUser.clear();
  };

  return {
    get(sessionId) {
      if (!listening) return undefined;
      const entry = entries.get(sessionId);
      if (!entry) return undefined;
      if (entry.until > now()) return entry.resolved;
      drop(sessionId);
      return undefined;
    },
    version: () => version,
    set(sessionId, resolved, readVersion) {
      if (!listening || readVersion !== version) return;
      drop(sessionId);
      if (entries.size >= MAX_ENTRIES) drop(entries.keys().next().value!);
      // shared by every request that hits it: nobody may change it
      Object.freeze(resolved.session);
      Object.freeze(resolved.user);
      entries.set(sessionId, { resolved: Object.freeze(resolved), until: now() + ttlMs });
      const ids = byUser.get(resolved.user.id) ?? new Set<string>();
      ids.add(sessionId);
      byUser.set(resolved.user.id, ids);
    },
    forget(which) {
      version += 1;
      for (const sessionId of which.sessionIds ?? []) drop(sessionId);
      for (const userId of which.userIds ?? []) for (const sessionId of [...(byUser.get(userId) ?? [])]) drop(sessionId);
    },
    forgetAll: clear,
    setListening(on) {
      // whatever was said while this copy could not hear it is lost: start empty either way
      listening = on;
      clear();
    },
    listening: () => listening,
  };
}

/** A forget as published by core/realtime/emitter.ts, or null for anything else. */
export function parseForget(message: string): ForgetSessions | null {
  try {
    const value = JSON.parse(message) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const { sessionIds, userIds } = value as Record<string, unknown>;
    const fits = (list: unknown) => list === undefined || (Array.isArray(list) && list.every((s) => typeof s === 'string'));
    if (!fits(sessionIds) || !fits(userIds)) return null;
    return { sessionIds: sessionIds as string[] | undefined, userIds: userIds as string[] | undefined };
  } catch {
    return null;
  }
}

/**
 * Wires a cache to the forgets: this process's own (at once) and every copy's through a Redis
 * subscriber of its own. The cache works only while that subscriber is subscribed; a dropped
 * connection turns it off (and empties it) until the subscription is back.
 */
export function listenForForgets(cache: SessionCache, deps: { redis: Redis; realtime: Realtime; config: Pick<Config, 'REDIS_PREFIX'>; log: Logger }): { close(): Promise<void> } {
  const channel = sessionCacheChannel(deps.config.REDIS_PREFIX);
  const report = throttledReporter((err, suppressed) => deps.log.warn({ err, suppressed }, 'session cache: Redis unavailable (sessions are read from PostgreSQL meanwhile)'));
  const unsubscribeLocal = deps.realtime.onForgetSessions((which) => cache.forget(which));
  // its own subscription, made again by hand after each reconnect so the cache is on only once it holds
  const sub = duplicateRedis(deps.redis, { maxRetriesPerRequest: null, commandTimeout: undefined, autoResubscribe: false });
  sub.on('error', report);
  sub.on('ready', () => {
    sub.subscribe(channel).then(
      () => cache.setListening(sub.status === 'ready'),
      (error: unknown) => report(error),
    );
  });
  sub.on('close', () => cache.setListening(false));
  sub.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const which = parseForget(message);
    // a message it cannot read might have named anyone: forget everything
    if (which) cache.forget(which);
    else cache.forgetAll();
  });
  return {
    async close() {
      unsubscribeLocal();
      cache.setListening(false);
      // its subscription may be on its way after a reconnect: cut only once it is answered
      await disconnectSubscriber(sub);
    },
  };
}
