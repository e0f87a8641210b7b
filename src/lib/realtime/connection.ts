import { useEffect } from 'react';
import type { Socket } from 'socket.io-client';
import { LIMITS } from '../../../common/limits';
import type { ClientToServerEvents, ServerEventName, ServerToClientEvents } from '../../../common/socket-events';
import { reportSessionEvent } from '../session';
import { setLiveSocketId } from '../trpc';
import { createIncomingQueue, type IncomingEvent } from './incoming-queue';
import { dispatchRealtimeEvent } from './listeners';
import { rooms, type RoomSender } from './rooms';

/**
 * One Socket.IO connection per browser tab, authenticated by the session cookie when there is
 * one: visitors connect too (the server puts them in the `feed` room and lets them join the rooms
 * of posts they may see). A new connection is made when who is signed in changes.
 *
 * - Rooms (rooms.ts) are asked for again on every new connection.
 * - Every server event goes through one queue handed on at most 10 per second (spec part 1 §7:
 *   'Event rate limit is 10 per second'; events carrying an absolute value for the same thing are
 *   merged) to the typed listeners of listeners.ts. Only the session's end, the server's rate
 *   notice and `resync` (events were lost during a Redis outage: catch up) are acted on at once, here.
 * - Every tRPC request carries the socket id (lib/trpc.ts): the server leaves this socket out of
 *   the events the request causes, since this tab has applied the change already.
 * - socket.io-client is imported when the first connection is asked for (after the shell's first
 *   render), not with the app: it is not needed to paint a page (tests/e2e/bundle-budget.spec.ts).
 *   Until the socket exists, rooms wait in rooms.ts and listeners in listeners.ts, as they do
 *   while disconnected.
 */
export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;
/** the user id the socket was (or is being) opened for, '' for a visitor */
let socketIdentity: string | null = null;
/** counts connect and disconnect calls: a socket.io-client import that resolves late opens nothing for a stale one */
let generation = 0;

type SocketIoClient = typeof import('socket.io-client');
let socketIoClient: Promise<SocketIoClient> | null = null;
const loadSocketIoClient = () => (socketIoClient ??= import('socket.io-client'));

setLiveSocketId(() => (socket?.connected ? socket.id : undefined));

/** Beyond this many waiting events the oldest are dropped. */
const QUEUE_MAX = 500;

/** Events that carry an absolute value: a newer one replaces the one still waiting. */
const LATEST_WINS: Partial<Record<ServerEventName, (payload: unknown) => string>> = {
  'post:likes': (p) => (p as { postId: string }).postId,
  'post:bookmarks': (p) => (p as { postId: string }).postId,
  'post:progress': (p) => (p as { postId: string }).postId,
  'unread:changed': () => '',
  'notifications:unread': () => '',
};

/** Handled here at once, not queued: the session's end must stop reconnection before the server disconnects. */
const CONTROL_EVENTS = new Set<string>(['session:revoked', 'rate:limited', 'resync'] satisfies ServerEventName[]);

/**
 * A `resync` reaches every open tab at once (after a Redis outage): each waits up to this long,
 * at random, before refetching, so the server is not asked for every open page in one instant.
 */
const RESYNC_SPREAD_MS = 2_000;

const incoming = createIncomingQueue({
  perSecond: LIMITS.socketEventsPerSecond,
  max: QUEUE_MAX,
  latestWinsKey: ({ event, args }: IncomingEvent) => {
    const key = LATEST_WINS[event as ServerEventName];
    return key ? `${event}|${key(args[0])}` : null;
  },
  deliver: ({ event, args }) => dispatchRealtimeEvent(event, args),
});

function roomSender(s: AppSocket): RoomSender {
  return {
    join(kind, ids, onJoined) {
      s.emit('room:join', { kind, ids }, (ack) => onJoined(ack?.kind === kind ? ack.ids : []));
    },
    leave(kind, ids) {
      s.emit('room:leave', { kind, ids });
    },
  };
}

function connect(identity: string): void {
  if (socketIdentity === identity) return; // open, or being opened
  disconnect();
  socketIdentity = identity;
  const current = generation;
  loadSocketIoClient().then(
    ({ io }) => {
      if (current === generation) open(io, identity);
    },
    (error: unknown) => {
      // a failed chunk load (offline, a new deploy): the next identity change or page load tries again
      console.error('The live connection could not be loaded', error);
      socketIoClient = null;
      if (current === generation) socketIdentity = null;
    },
  );
}

function open(io: SocketIoClient['io'], identity: string): AppSocket {
  const s: AppSocket = io({
    path: '/socket.io',
    withCredentials: true,
    // WebSocket first: its handshake always carries an Origin header, which the server checks.
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
  });
  socket = s;
  socketIdentity = identity;
  s.on('connect', () => rooms.connected(roomSender(s)));
  s.on('disconnect', () => rooms.disconnected());
  s.on('rooms:revoked', ({ kind, ids }) => rooms.revoked(kind, ids));
  s.on('session:revoked', () => {
    // a visitor's socket with a leftover cookie: nobody to sign out, and it must keep reconnecting
    if (identity === '') return;
    // The server ends this session's sockets right after; do not reconnect with a dead cookie
    // (the shell reconnects as a visitor once the session watcher has noticed).
    s.io.opts.reconnection = false;
    reportSessionEvent('revoked');
  });
  s.on('rate:limited', ({ limit }) => console.warn(`The server dropped socket events above ${limit} per second`));
  // events may have been lost between the server and Redis: the listeners (resync.ts, the
  // messages' catch-up) read again what this tab shows
  s.on('resync', () => {
    setTimeout(() => dispatchRealtimeEvent('resync', []), Math.random() * RESYNC_SPREAD_MS);
  });
  s.onAny((event: string, ...args: unknown[]) => {
    if (!CONTROL_EVENTS.has(event)) incoming.push({ event, args });
  });
  return s;
}

function disconnect(): void {
  generation += 1;
  socket?.removeAllListeners();
  socket?.offAny();
  socket?.disconnect();
  if (socket) rooms.disconnected();
  socket = null;
  socketIdentity = null;
}

/**
 * Mount once (in the app shell) with the signed-in user's id, null for a visitor, or undefined
 * while that is not known yet.
 */
export function useRealtimeConnection(userId: string | null | undefined): void {
  useEffect(() => {
    if (userId !== undefined) connect(userId ?? '');
  }, [userId]);

  // Leave for good when the shell unmounts (tab closing, hot reload).
  useEffect(() => () => disconnect(), []);
}
