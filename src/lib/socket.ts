import { useEffect, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';
import { LIMITS } from '../../common/limits';
import type {
  ClientToServerEvents,
  PostBookmarksEvent,
  PostCommentEvent,
  PostDeletedEvent,
  PostDraftReadyEvent,
  PostFailedEvent,
  PostLikesEvent,
  PostProgressEvent,
  PostPublishedEvent,
  ServerToClientEvents,
} from '../../common/socket-events';
import { reportSessionEvent } from './session';
import { setLiveSocketId, trpc } from './trpc';

/**
 * One Socket.IO connection per browser tab, authenticated by the session cookie when there is
 * one: visitors connect too (the server puts them in the `feed` room and lets them join the rooms
 * of posts they may see). A new connection is made when who is signed in changes.
 *
 * Besides the connection this module keeps
 * - the post rooms: components showing a post call `usePostRoom(id)`; joins and leaves are batched
 *   (≤ 50 ids per `post:join` / `post:leave`), kept under the server's 10 events per second, and
 *   every room is joined again after a reconnect;
 * - the post events: `post:likes`, `post:comment`, `post:bookmarks`, `post:deleted`,
 *   `post:published` (and, to a creator, `post:failed`, `post:draft-ready`, `post:progress`) go through one queue processed at most 10 per second (spec part 1 §7:
 *   'Event rate limit is 10 per second'; count events for the same post are merged, their counts
 *   being absolute) to the listeners registered with `onPostEvent`;
 * - the socket id, which every tRPC request carries (lib/trpc.ts): the server leaves this socket
 *   out of the events the request causes, since this tab has applied the change already.
 * A post's deletion reaches only the rooms of those who may see it (and the creator's own tabs),
 * so every screen that shows a post must keep its room with `usePostRoom` (PostCard does).
 */
export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;
/** the user id the socket was opened for, '' for a visitor */
let socketIdentity: string | null = null;

// Each tRPC request names this tab's socket, so the server does not echo the change back to it.
setLiveSocketId(() => (socket?.connected ? socket.id : undefined));

export function getSocket(): AppSocket | null {
  return socket;
}

function connect(identity: string): AppSocket {
  if (socket && socketIdentity === identity) return socket;
  disconnect();
  const s: AppSocket = io({
    path: '/socket.io',
    withCredentials: true,
    // WebSocket first: its handshake always carries an Origin header, which the server checks.
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
  });
  socket = s;
  socketIdentity = identity;
  s.on('connect', () => {
    // a new connection is in no post room yet
    pendingLeave.clear();
    for (const id of roomRefs.keys()) pendingJoin.add(id);
    joined.clear();
    emitRooms();
    scheduleRoomFlush(0);
  });
  s.on('disconnect', () => {
    joined.clear();
    emitRooms();
  });
  s.on('post:likes', (payload) => enqueue({ type: 'post:likes', payload }));
  s.on('post:comment', (payload) => enqueue({ type: 'post:comment', payload }));
  s.on('post:bookmarks', (payload) => enqueue({ type: 'post:bookmarks', payload }));
  s.on('post:deleted', (payload) => enqueue({ type: 'post:deleted', payload }));
  s.on('post:published', (payload) => enqueue({ type: 'post:published', payload }));
  // the creator's own uploads (room user:<id>): failed, draft ready, processing progress
  s.on('post:failed', (payload) => enqueue({ type: 'post:failed', payload }));
  s.on('post:draft-ready', (payload) => enqueue({ type: 'post:draft-ready', payload }));
  s.on('post:progress', (payload) => enqueue({ type: 'post:progress', payload }));
  s.on('rate:limited', ({ limit }) => console.warn(`The server dropped socket events above ${limit} per second`));
  return s;
}

function disconnect(): void {
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  socketIdentity = null;
  joined.clear();
  emitRooms();
}

/**
 * Mount once (in the app shell) with the signed-in user's id, null for a visitor, or undefined
 * while that is not known yet.
 */
export function useRealtimeConnection(userId: string | null | undefined): void {
  const utils = trpc.useUtils();

  useEffect(() => {
    if (userId === undefined) return;
    const s = connect(userId ?? '');
    if (!userId) return;
    const onUnreadChanged = () => {
      void utils.messages.unreadCount.invalidate();
    };
    const onSessionRevoked = () => {
      // The server ends this session's sockets right after; do not reconnect with a dead cookie
      // (the shell reconnects as a visitor once the session watcher has noticed).
      s.io.opts.reconnection = false;
      reportSessionEvent('revoked');
    };
    s.on('unread:changed', onUnreadChanged);
    s.on('session:revoked', onSessionRevoked);
    return () => {
      s.off('unread:changed', onUnreadChanged);
      s.off('session:revoked', onSessionRevoked);
    };
  }, [userId, utils]);

  // Leave for good when the shell unmounts (tab closing, hot reload).
  useEffect(() => () => disconnect(), []);
}

// ---- post rooms -----------------------------------------------------------------------------

/** post id → how many mounted components show it */
const roomRefs = new Map<string, number>();
const pendingJoin = new Set<string>();
const pendingLeave = new Set<string>();
/** rooms the server confirmed (join ack) on the current connection */
const joined = new Set<string>();
let joinedSnapshot: ReadonlySet<string> = new Set();
const roomListeners = new Set<() => void>();

/** Gathers the joins and leaves of one render pass (a page of posts) into one message. */
const ROOM_BATCH_MS = 100;
/** Outgoing events per second we allow ourselves: well under the server's limit, which drops the excess. */
const OUTGOING_PER_SECOND = Math.floor(LIMITS.socketEventsPerSecond / 2);
const sentAt: number[] = [];
let roomTimer: ReturnType<typeof setTimeout> | null = null;

function emitRooms() {
  joinedSnapshot = new Set(joined);
  for (const listener of roomListeners) listener();
}

function scheduleRoomFlush(delay = ROOM_BATCH_MS) {
  if (roomTimer) return;
  roomTimer = setTimeout(() => {
    roomTimer = null;
    flushRooms();
  }, delay);
}

/** Sends what is pending, 50 ids per message, within the outgoing budget; the rest waits. */
function flushRooms() {
  const s = socket;
  if (!s?.connected) return; // the 'connect' handler joins everything
  const now = Date.now();
  while (sentAt.length && now - sentAt[0]! >= 1000) sentAt.shift();

  const send = (event: 'post:join' | 'post:leave', ids: Set<string>) => {
    while (ids.size && sentAt.length < OUTGOING_PER_SECOND) {
      const batch = [...ids].slice(0, LIMITS.postRoomJoinMax);
      for (const id of batch) ids.delete(id);
      sentAt.push(now);
      if (event === 'post:join') {
        s.emit('post:join', batch, (ack) => {
          if (s !== socket) return;
          for (const id of ack?.postIds ?? []) if (roomRefs.has(id)) joined.add(id);
          emitRooms();
        });
      } else {
        s.emit('post:leave', batch);
        for (const id of batch) joined.delete(id);
        emitRooms();
      }
    }
  };
  send('post:leave', pendingLeave);
  send('post:join', pendingJoin);
  if (pendingJoin.size || pendingLeave.size) scheduleRoomFlush(Math.max(50, 1000 - (now - (sentAt[0] ?? now))));
}

function retainPostRoom(postId: string): () => void {
  const count = roomRefs.get(postId) ?? 0;
  roomRefs.set(postId, count + 1);
  if (count === 0) {
    if (pendingLeave.has(postId)) pendingLeave.delete(postId);
    else if (!joined.has(postId)) pendingJoin.add(postId);
    scheduleRoomFlush();
  }
  return () => {
    const left = (roomRefs.get(postId) ?? 1) - 1;
    if (left > 0) {
      roomRefs.set(postId, left);
      return;
    }
    roomRefs.delete(postId);
    if (pendingJoin.has(postId)) pendingJoin.delete(postId);
    else pendingLeave.add(postId);
    scheduleRoomFlush();
  };
}

/** While the calling component is mounted, this socket is in the post's room (live counts, comments, deletion). */
export function usePostRoom(postId: string | null | undefined): void {
  useEffect(() => (postId ? retainPostRoom(postId) : undefined), [postId]);
}

/** True once the server confirmed this socket is in the post's room. */
export function useIsPostRoomJoined(postId: string): boolean {
  return useSyncExternalStore(
    (listener) => {
      roomListeners.add(listener);
      return () => roomListeners.delete(listener);
    },
    () => joinedSnapshot.has(postId),
  );
}

// ---- incoming post events -------------------------------------------------------------------

export type PostEvent =
  | { type: 'post:likes'; payload: PostLikesEvent }
  | { type: 'post:comment'; payload: PostCommentEvent }
  | { type: 'post:bookmarks'; payload: PostBookmarksEvent }
  | { type: 'post:deleted'; payload: PostDeletedEvent }
  | { type: 'post:published'; payload: PostPublishedEvent }
  | { type: 'post:failed'; payload: PostFailedEvent }
  | { type: 'post:draft-ready'; payload: PostDraftReadyEvent }
  | { type: 'post:progress'; payload: PostProgressEvent };

type PostEventListener = (event: PostEvent) => void;
const postListeners = new Set<PostEventListener>();

/** Registers a listener for post events (after the client-side rate limit). */
export function onPostEvent(listener: PostEventListener): () => void {
  postListeners.add(listener);
  return () => postListeners.delete(listener);
}

const queue: PostEvent[] = [];
const processedAt: number[] = [];
let queueTimer: ReturnType<typeof setTimeout> | null = null;
/** Beyond this many waiting events the oldest are dropped (a burst nobody could read anyway). */
const QUEUE_MAX = 500;

function enqueue(event: PostEvent) {
  // Counts (and processing progress) are absolute: a newer value for the same post replaces one still waiting.
  if (event.type === 'post:likes' || event.type === 'post:bookmarks' || event.type === 'post:progress') {
    const index = queue.findIndex((e) => e.type === event.type && e.payload.postId === event.payload.postId);
    if (index !== -1) {
      queue[index] = event;
      return;
    }
  }
  queue.push(event);
  if (queue.length > QUEUE_MAX) queue.splice(0, queue.length - QUEUE_MAX);
  drain();
}

function drain() {
  if (queueTimer) return;
  const now = Date.now();
  while (processedAt.length && now - processedAt[0]! >= 1000) processedAt.shift();
  while (queue.length && processedAt.length < LIMITS.socketEventsPerSecond) {
    const event = queue.shift()!;
    processedAt.push(now);
    for (const listener of postListeners) {
      try {
        listener(event);
      } catch (error) {
        console.error('A live update failed', error);
      }
    }
  }
  if (queue.length) {
    queueTimer = setTimeout(
      () => {
        queueTimer = null;
        drain();
      },
      Math.max(10, 1000 - (now - processedAt[0]!)),
    );
  }
}
