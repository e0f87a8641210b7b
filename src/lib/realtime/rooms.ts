import { useEffect, useSyncExternalStore } from 'react';
import { LIMITS } from '../../../common/limits';
import type { RoomKind } from '../../../common/socket-events';

/** How the registry talks to the server: a connected socket's join and leave messages. */
export interface RoomSender {
  /** asks to join these rooms of one kind; `onJoined` gets the ids the server let this socket in */
  join(kind: RoomKind, ids: string[], onJoined: (ids: string[]) => void): void;
  leave(kind: RoomKind, ids: string[]): void;
}

export interface RoomRegistryOptions {
  /** ids per join or leave message at most (the server ignores the rest) */
  maxIdsPerMessage: number;
  /** join and leave messages per second at most (the server drops what exceeds its own limit) */
  perSecond: number;
  /** joins and leaves within this window (one render pass: a page of posts) go in one message */
  batchMs: number;
}

const roomKey = (kind: RoomKind, id: string) => `${kind}:${id}`;

/**
 * The rooms this tab wants to be in, by kind and id, counted by the components that show them:
 * the first `retain` joins, the last release leaves. Joins and leaves are batched (one message per
 * kind and batch), kept within the outgoing budget (the rest waits for the next second), and every
 * retained room is joined again on each new connection. `isJoined` is true once the server
 * confirmed the join on the current connection. Pure apart from the global clock and timers.
 */
export function createRoomRegistry({ maxIdsPerMessage, perSecond, batchMs }: RoomRegistryOptions) {
  const rooms = new Map<string, { kind: RoomKind; id: string; count: number }>();
  const pendingJoin = new Set<string>();
  const pendingLeave = new Map<string, { kind: RoomKind; id: string }>();
  const joined = new Set<string>();
  let joinedSnapshot: ReadonlySet<string> = new Set();
  const listeners = new Set<() => void>();
  const sentAt: number[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let sender: RoomSender | null = null;
  /** a new connection makes the acks of the previous one meaningless */
  let connection = 0;

  function changed() {
    joinedSnapshot = new Set(joined);
    for (const listener of listeners) listener();
  }

  function schedule(delay = batchMs) {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      flush();
    }, delay);
  }

  /** Sends what is pending within the budget, leaves before joins; the rest is retried later. */
  function flush() {
    const to = sender;
    if (!to) return; // the next connection joins everything
    const now = Date.now();
    while (sentAt.length && now - sentAt[0]! >= 1000) sentAt.shift();
    const current = connection;

    const batches = (keys: Iterable<string>, lookup: (key: string) => { kind: RoomKind; id: string } | undefined) => {
      const byKind = new Map<RoomKind, string[]>();
      for (const key of keys) {
        const room = lookup(key);
        if (!room) continue;
        const ids = byKind.get(room.kind) ?? [];
        ids.push(room.id);
        byKind.set(room.kind, ids);
      }
      return [...byKind].flatMap(([kind, ids]) => {
        const out: { kind: RoomKind; ids: string[] }[] = [];
        for (let i = 0; i < ids.length; i += maxIdsPerMessage) out.push({ kind, ids: ids.slice(i, i + maxIdsPerMessage) });
        return out;
      });
    };

    for (const { kind, ids } of batches(pendingLeave.keys(), (key) => pendingLeave.get(key))) {
      if (sentAt.length >= perSecond) break;
      sentAt.push(now);
      for (const id of ids) {
        pendingLeave.delete(roomKey(kind, id));
        joined.delete(roomKey(kind, id));
      }
      to.leave(kind, ids);
      changed();
    }
    for (const { kind, ids } of batches(pendingJoin, (key) => rooms.get(key))) {
      if (sentAt.length >= perSecond) break;
      sentAt.push(now);
      for (const id of ids) pendingJoin.delete(roomKey(kind, id));
      to.join(kind, ids, (accepted) => {
        if (current !== connection) return;
        for (const id of accepted) if (rooms.has(roomKey(kind, id))) joined.add(roomKey(kind, id));
        changed();
      });
    }
    if (pendingJoin.size || pendingLeave.size) schedule(Math.max(50, 1000 - (now - (sentAt[0] ?? now))));
  }

  return {
    /** This tab wants the room until the returned release is called (once per retain). */
    retain(kind: RoomKind, id: string): () => void {
      const key = roomKey(kind, id);
      const room = rooms.get(key);
      if (room) room.count += 1;
      else {
        rooms.set(key, { kind, id, count: 1 });
        if (pendingLeave.has(key)) pendingLeave.delete(key);
        else if (!joined.has(key)) pendingJoin.add(key);
        schedule();
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const entry = rooms.get(key);
        if (!entry) return;
        entry.count -= 1;
        if (entry.count > 0) return;
        rooms.delete(key);
        if (pendingJoin.has(key)) pendingJoin.delete(key);
        else pendingLeave.set(key, { kind, id });
        schedule();
      };
    },

    /** A new connection is in no room yet: every retained room is asked for again at once. */
    connected(to: RoomSender): void {
      sender = to;
      connection += 1;
      pendingLeave.clear();
      pendingJoin.clear();
      for (const key of rooms.keys()) pendingJoin.add(key);
      joined.clear();
      changed();
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      schedule(0);
    },

    disconnected(): void {
      sender = null;
      connection += 1;
      joined.clear();
      changed();
    },

    /**
     * The server took this socket out of rooms it may no longer hear (a creator went private, a
     * block, a subscription ended): they are not joined any more. A retained one is asked for
     * again on the next connection, and refused there while the reason stands.
     */
    revoked(kind: RoomKind, ids: readonly string[]): void {
      let any = false;
      for (const id of ids) any = joined.delete(roomKey(kind, id)) || any;
      if (any) changed();
    },

    isJoined(kind: RoomKind, id: string): boolean {
      return joinedSnapshot.has(roomKey(kind, id));
    },

    /** For useSyncExternalStore: called whenever the set of confirmed rooms changes. */
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export type RoomRegistry = ReturnType<typeof createRoomRegistry>;

/** Outgoing messages per second we allow ourselves: well under the server's limit, which drops the excess. */
const OUTGOING_PER_SECOND = Math.floor(LIMITS.socketEventsPerSecond / 2);

/** This tab's rooms; the connection (connection.ts) tells it when a socket comes and goes. */
export const rooms = createRoomRegistry({
  maxIdsPerMessage: LIMITS.postRoomJoinMax,
  perSecond: OUTGOING_PER_SECOND,
  batchMs: 100,
});

/**
 * While the calling component is mounted, this tab is in the room (live counts, comments, a
 * deletion of what it shows). Nothing happens for a null id.
 */
export function useRoom(kind: RoomKind, id: string | null | undefined): void {
  useEffect(() => (id ? rooms.retain(kind, id) : undefined), [kind, id]);
}

const notJoined = () => false;

/** True once the server confirmed this tab's socket is in the room (never in a server-rendered page's HTML: no socket there). */
export function useIsRoomJoined(kind: RoomKind, id: string): boolean {
  return useSyncExternalStore(rooms.subscribe, () => rooms.isJoined(kind, id), notJoined);
}
