import { createAdapter } from '@socket.io/redis-adapter';
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { LIMITS } from '../../common/limits';
import {
  FEED_ROOM,
  postRoom,
  sessionRoom,
  userRoom,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '../../common/socket-events';
import { readSessionCookie } from '../auth/cookies';
import { validateSessionToken } from '../auth/session';
import type { AppDeps } from '../deps';
import { filterVisiblePostIds } from '../features/posts/access';
import { isAllowedOrigin } from '../http/csrf';
import { socketChannelKey } from './emitter';

interface SocketData {
  userId: string | null;
  sessionId: string | null;
}

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * Socket.IO on the HTTP server. The handshake is authenticated from the session cookie:
 * every socket joins `feed`; signed-in sockets also `user:<id>` and `session:<id>`. A socket
 * joins `post:<id>` rooms by asking (`post:join`), only for posts the access rule lets its user
 * see. The Redis adapter lets every server process deliver events emitted anywhere.
 */
export function attachSocketServer(httpServer: HttpServer, deps: AppDeps): IoServer {
  const pub = deps.redis.duplicate();
  const sub = deps.redis.duplicate();
  const io: IoServer = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    adapter: createAdapter(pub, sub, { key: socketChannelKey(deps.config.REDIS_PREFIX) }),
    // Cross-site WebSocket hijacking: only this site's pages may open a socket with our cookie.
    // Browsers always send Origin cross-site (WebSocket upgrade, credentialed XHR), but may omit it on
    // a same-origin polling GET, so a missing Origin is allowed and a foreign one refused.
    allowRequest: (req, callback) =>
      callback(null, req.headers.origin === undefined || isAllowedOrigin(req.headers.origin, req, deps.config)),
  });
  io.use(async (socket, next) => {
    try {
      const token = readSessionCookie(socket.request);
      const auth = token ? await validateSessionToken(deps.db, token) : null;
      socket.data.userId = auth?.user.id ?? null;
      socket.data.sessionId = auth?.session.id ?? null;
      next();
    } catch (error) {
      deps.log.error({ err: error }, 'socket handshake failed');
      next(new Error('handshake failed'));
    }
  });
  io.on('connection', (socket) => {
    const { userId, sessionId } = socket.data;
    void socket.join(userId && sessionId ? [FEED_ROOM, userRoom(userId), sessionRoom(sessionId)] : [FEED_ROOM]);

    // Spec part 1 §7: 'Event rate limit is 10 per second'. Extra events are dropped (not
    // handled, no ack) and the client is told once per window.
    const limiter = perSecondLimiter(LIMITS.socketEventsPerSecond);
    socket.use((_packet, next) => {
      const verdict = limiter();
      if (verdict === 'ok') return next();
      if (verdict === 'first-over') {
        deps.log.warn({ userId, socketId: socket.id }, 'socket event rate limit exceeded: dropping events');
        socket.emit('rate:limited', { limit: LIMITS.socketEventsPerSecond });
      }
    });

    socket.on('post:join', async (postIds, ack) => {
      try {
        const ids = postIdList(postIds);
        const visible = await filterVisiblePostIds(deps.db, socket.data.userId, ids);
        if (visible.length) await socket.join(visible.map(postRoom));
        if (typeof ack === 'function') ack({ postIds: visible });
      } catch (error) {
        deps.log.error({ err: error }, 'post:join failed');
        if (typeof ack === 'function') ack({ postIds: [] });
      }
    });
    socket.on('post:leave', async (postIds, ack) => {
      const ids = postIdList(postIds);
      await Promise.all(ids.map((id) => socket.leave(postRoom(id))));
      if (typeof ack === 'function') ack({ postIds: ids });
    });
  });
  const close = io.close.bind(io);
  io.close = (fn) =>
    close((err) => {
      pub.disconnect();
      sub.disconnect();
      fn?.(err);
    });
  return io;
}

/** A socket's post id list: strings only, no duplicates, at most LIMITS.postRoomJoinMax. */
function postIdList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const ids = value.filter((v): v is string => typeof v === 'string' && v.length <= 100);
  return [...new Set(ids)].slice(0, LIMITS.postRoomJoinMax);
}

/**
 * A fixed one-second window opened by the first call: 'ok' up to `limit` calls, then
 * 'first-over' once and 'over' for the rest of the window.
 */
export function perSecondLimiter(limit: number, now: () => number = Date.now) {
  let windowStart = -Infinity;
  let count = 0;
  return (): 'ok' | 'first-over' | 'over' => {
    const t = now();
    if (t - windowStart >= 1000) {
      windowStart = t;
      count = 0;
    }
    count += 1;
    if (count <= limit) return 'ok';
    return count === limit + 1 ? 'first-over' : 'over';
  };
}
