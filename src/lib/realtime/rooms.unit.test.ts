import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoomKind } from '../../../common/socket-events';
import { createRoomRegistry, type RoomSender } from './rooms';

/** A socket that records what it was asked to send and lets the test answer the joins. */
function fakeSocket() {
  const sent: { op: 'join' | 'leave'; kind: RoomKind; ids: string[] }[] = [];
  const acks: ((ids: string[]) => void)[] = [];
  const sender: RoomSender = {
    join(kind, ids, onJoined) {
      sent.push({ op: 'join', kind, ids });
      acks.push(onJoined);
    },
    leave(kind, ids) {
      sent.push({ op: 'leave', kind, ids });
    },
  };
  /** the server lets the socket into everything it asked for */
  const ackAll = () => {
    sent.filter((m) => m.op === 'join').forEach((m, i) => acks[i]?.(m.ids));
  };
  return { sender, sent, acks, ackAll };
}

const ids = (n: number, prefix = 'p') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('the room registry', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const registry = () => createRoomRegistry({ maxIdsPerMessage: 50, perSecond: 5, batchMs: 100 });

  it('joins a room once for any number of holders and leaves it when the last lets go', () => {
    const rooms = registry();
    const socket = fakeSocket();
    rooms.connected(socket.sender);
    const first = rooms.retain('post', 'a');
    const second = rooms.retain('post', 'a');
    vi.advanceTimersByTime(100);
    expect(socket.sent).toEqual([{ op: 'join', kind: 'post', ids: ['a'] }]);
    expect(rooms.isJoined('post', 'a')).toBe(false);
    socket.ackAll();
    expect(rooms.isJoined('post', 'a')).toBe(true);

    first();
    first(); // a release counts once
    vi.advanceTimersByTime(1000);
    expect(socket.sent).toHaveLength(1);
    expect(rooms.isJoined('post', 'a')).toBe(true);
    second();
    vi.advanceTimersByTime(100);
    expect(socket.sent).toEqual([
      { op: 'join', kind: 'post', ids: ['a'] },
      { op: 'leave', kind: 'post', ids: ['a'] },
    ]);
    expect(rooms.isJoined('post', 'a')).toBe(false);
  });

  it('sends nothing for a room let go, or taken back, within one batch', () => {
    const rooms = registry();
    const socket = fakeSocket();
    rooms.connected(socket.sender);
    vi.advanceTimersByTime(0);
    rooms.retain('post', 'brief')();
    vi.advanceTimersByTime(500);
    expect(socket.sent).toEqual([]);

    const release = rooms.retain('post', 'kept');
    vi.advanceTimersByTime(100);
    socket.ackAll();
    release();
    const again = rooms.retain('post', 'kept');
    vi.advanceTimersByTime(1000);
    expect(socket.sent).toEqual([{ op: 'join', kind: 'post', ids: ['kept'] }]);
    expect(rooms.isJoined('post', 'kept')).toBe(true);
    again();
  });

  it('batches one render pass per kind, 50 ids a message, and keeps within 5 messages a second', () => {
    const rooms = registry();
    const socket = fakeSocket();
    rooms.connected(socket.sender);
    vi.advanceTimersByTime(0);
    for (const id of ids(260)) rooms.retain('post', id);
    rooms.retain('user', 'me');
    vi.advanceTimersByTime(100);
    // 6 post messages and 1 user message wanted: 5 go now
    expect(socket.sent).toHaveLength(5);
    expect(socket.sent.map((m) => m.ids.length)).toEqual([50, 50, 50, 50, 50]);
    expect(socket.sent.every((m) => m.op === 'join' && m.kind === 'post')).toBe(true);
    // the rest a second after the first went
    vi.advanceTimersByTime(999);
    expect(socket.sent).toHaveLength(5);
    vi.advanceTimersByTime(1);
    expect(socket.sent.slice(5)).toEqual([
      { op: 'join', kind: 'post', ids: ids(260).slice(250) },
      { op: 'join', kind: 'user', ids: ['me'] },
    ]);
    socket.ackAll();
    expect(rooms.isJoined('post', 'p259')).toBe(true);
    expect(rooms.isJoined('user', 'me')).toBe(true);
    expect(rooms.isJoined('post', 'me')).toBe(false);
  });

  it('counts only the ids the server let in, and only rooms still wanted', () => {
    const rooms = registry();
    const socket = fakeSocket();
    rooms.connected(socket.sender);
    vi.advanceTimersByTime(0);
    rooms.retain('post', 'visible');
    rooms.retain('post', 'hidden');
    const release = rooms.retain('post', 'gone');
    vi.advanceTimersByTime(100);
    release();
    socket.acks[0]!(['visible', 'gone']);
    expect(rooms.isJoined('post', 'visible')).toBe(true);
    expect(rooms.isJoined('post', 'hidden')).toBe(false);
    expect(rooms.isJoined('post', 'gone')).toBe(false);
  });

  it('asks for nothing while disconnected, and for every wanted room again on each new connection', () => {
    const rooms = registry();
    const first = fakeSocket();
    rooms.retain('post', 'a');
    rooms.retain('post', 'b');
    vi.advanceTimersByTime(1000);
    rooms.connected(first.sender);
    vi.advanceTimersByTime(0);
    expect(first.sent).toEqual([{ op: 'join', kind: 'post', ids: ['a', 'b'] }]);
    const staleAck = first.acks[0]!;

    rooms.disconnected();
    const second = fakeSocket();
    rooms.connected(second.sender);
    // the answer of the old connection means nothing on the new one
    staleAck(['a', 'b']);
    expect(rooms.isJoined('post', 'a')).toBe(false);
    vi.advanceTimersByTime(0);
    expect(second.sent).toEqual([{ op: 'join', kind: 'post', ids: ['a', 'b'] }]);
    second.ackAll();
    expect(rooms.isJoined('post', 'a')).toBe(true);
    rooms.disconnected();
    expect(rooms.isJoined('post', 'a')).toBe(false);
  });

  it('tells subscribers when the confirmed rooms change', () => {
    const rooms = registry();
    const socket = fakeSocket();
    const listener = vi.fn();
    const unsubscribe = rooms.subscribe(listener);
    rooms.connected(socket.sender);
    rooms.retain('post', 'a');
    vi.advanceTimersByTime(100);
    listener.mockClear();
    socket.ackAll();
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    rooms.disconnected();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('forgets a room the server took the socket out of, and asks for it again on the next connection', () => {
    const rooms = registry();
    const socket = fakeSocket();
    const listener = vi.fn();
    rooms.subscribe(listener);
    rooms.connected(socket.sender);
    rooms.retain('post', 'a');
    rooms.retain('post', 'b');
    vi.advanceTimersByTime(100);
    socket.ackAll();
    expect([rooms.isJoined('post', 'a'), rooms.isJoined('post', 'b')]).toEqual([true, true]);
    listener.mockClear();

    rooms.revoked('post', ['a', 'unknown']);
    expect([rooms.isJoined('post', 'a'), rooms.isJoined('post', 'b')]).toEqual([false, true]);
    expect(listener).toHaveBeenCalledTimes(1);

    const again = fakeSocket();
    rooms.connected(again.sender);
    vi.advanceTimersByTime(100);
    expect(again.sent).toEqual([{ op: 'join', kind: 'post', ids: ['a', 'b'] }]);
  });
});
