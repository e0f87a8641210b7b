import { describe, expect, it } from 'vitest';
import type { ResolvedSession } from './resolved-session';
import { createSessionCache, parseForget } from './session-cache';

const resolved = (sessionId: string, userId: string): ResolvedSession => ({
  session: { id: sessionId, userId, expiresAt: new Date('2030-01-01') },
  user: {
    id: userId,
    email: `${userId}@example.test`,
    role: 'user',
    emailVerified: true,
    username: userId,
    displayName: userId,
    avatarUrl: null,
    isCreator: false,
    isPremium: false,
    isVerified: false,
  },
});

function listeningCache() {
  let clock = 1_000;
  const cache = createSessionCache({ ttlMs: 5_000, now: () => clock });
  cache.setListening(true);
  return { cache, advance: (ms: number) => (clock += ms) };
}

describe('session cache', () => {
  it('answers a session for the TTL, then reads it again', () => {
    const { cache, advance } = listeningCache();
    cache.set('s1', resolved('s1', 'u1'), cache.version());
    expect(cache.get('s1')?.user.id).toBe('u1');
    advance(4_999);
    expect(cache.get('s1')).toBeDefined();
    advance(1);
    expect(cache.get('s1')).toBeUndefined();
  });

  it('forgets one session, or every session of a user', () => {
    const { cache } = listeningCache();
    for (const [s, u] of [['s1', 'u1'], ['s2', 'u1'], ['s3', 'u2']]) cache.set(s!, resolved(s!, u!), cache.version());
    cache.forget({ sessionIds: ['s3'] });
    expect(cache.get('s3')).toBeUndefined();
    cache.forget({ userIds: ['u1'] });
    expect([cache.get('s1'), cache.get('s2')]).toEqual([undefined, undefined]);
  });

  it('does not keep a read that a forget overtook (it may predate the commit that ended the session)', () => {
    const { cache } = listeningCache();
    const before = cache.version();
    cache.forget({ sessionIds: ['s1'] });
    cache.set('s1', resolved('s1', 'u1'), before);
    expect(cache.get('s1')).toBeUndefined();
  });

  it('caches nothing while it cannot hear the other copies, and starts empty when it can again', () => {
    const { cache } = listeningCache();
    cache.set('s1', resolved('s1', 'u1'), cache.version());
    cache.setListening(false);
    expect(cache.get('s1')).toBeUndefined();
    cache.set('s2', resolved('s2', 'u1'), cache.version());
    cache.setListening(true);
    expect([cache.get('s1'), cache.get('s2')]).toEqual([undefined, undefined]);
  });

  it('hands out answers nobody can change', () => {
    const { cache } = listeningCache();
    cache.set('s1', resolved('s1', 'u1'), cache.version());
    expect(() => Object.assign(cache.get('s1')!.user, { role: 'admin' })).toThrow(TypeError);
  });

  it('reads a published forget, and nothing else', () => {
    expect(parseForget(JSON.stringify({ sessionIds: ['s1'], userIds: ['u1'] }))).toEqual({ sessionIds: ['s1'], userIds: ['u1'] });
    expect(parseForget('not json')).toBeNull();
    expect(parseForget('42')).toBeNull();
    expect(parseForget(JSON.stringify({ sessionIds: [1] }))).toBeNull();
  });
});
