import { createAdapter } from '@socket.io/redis-adapter';
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { LIMITS } from '../../common/limits';
import {
  FEED_ROOM,
  roomName,
  sessionRoom,
  userRoom,
  type ClientToServerEvents,
  type ServerSideEvents,
  type ServerToClientEvents,
} from '../../common/socket-events';
import { sessionTokenOf } from '../auth/cookies';
import { resolveSession } from '../auth/resolve-session';
import type { AppDeps } from '../../core/deps';
import { isAllowedOrigin } from '../http/csrf';
import { socketChannelKey } from '../../core/realtime/emitter';
import { throttledReporter } from '../../core/dependency-errors';
import { disconnectSubscriber, duplicateRedis } from '../../core/redis';
import { parseRoomRequest, ROOM_AUTHORISERS } from './rooms/room-requests';
import { createPresenceTracker } from './presence';
import { parseReauthorisation, reauthoriseLocalSockets } from './reauthorise';

interface SocketData {
  userId: string | null;
  sessionId: string | null;
  /** the handshake carried a session cookie that names no live session (signed out elsewhere, expired) */
  staleCookie: boolean;
}

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, ServerSideEvents, SocketData>;

/**
 * Socket.IO on the HTTP server. The handshake is authenticated from the session cookie:
 * every socket joins `feed`; signed-in sockets also `user:<id>` and `session:<id>`. A socket
 * joins other rooms by kind and id by asking (`room:join`), only where that kind's authoriser
 * (rooms/) lets its user in. The Redis adapter lets every server process deliver events emitted
 * anywhere.
 */
export function attachSocketServer(httpServer: HttpServer, deps: AppDeps): IoServer {
  const { pub, sub } = adapterConnections(deps, () => {
    // this copy's sockets missed whatever was published while its subscription was down: they
    // refetch what they show (the data is in PostgreSQL)
    deps.log.info({ sockets: io.of('/').sockets.size }, 'Socket.IO adapter subscribed again: telling this copy’s sockets to catch up');
    io.local.emit('resync');
  });
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
      const auth = await resolveSession(deps, socket.request.headers.cookie);
      socket.data.userId = auth?.user.id ?? null;
      socket.data.sessionId = auth?.session.id ?? null;
      socket.data.staleCookie = !auth && sessionTokenOf(socket.request.headers.cookie) !== null;
      next();
    } catch (error) {
      deps.log.error({ err: error }, 'socket handshake failed');
      next(new Error('handshake failed'));
    }
  });
  // permissions changed somewhere (any copy or the worker): this copy's sockets follow
  io.on('rooms:reauthorise', (request: unknown) => {
    const parsed = parseReauthorisation(request);
    if (!parsed) return;
    reauthoriseLocalSockets(io, deps, parsed).catch((error: unknown) => deps.log.error({ err: error, kind: parsed.kind }, 'rooms:reauthorise failed'));
  });
  // online state of signed-in users (direct messages: the thread header's dot)
  const presence = createPresenceTracker(deps);
  io.on('connection', (socket) => {
    const { userId, sessionId, staleCookie } = socket.data;
    void socket.join(userId && sessionId ? [FEED_ROOM, userRoom(userId), sessionRoom(sessionId)] : [FEED_ROOM]);
    // A tab that opens (or reopens) its socket after its session ended elsewhere missed the
    // `session:revoked` sent then: it hears it now, instead of at its next session check.
    if (staleCookie) socket.emit('session:revoked');
    if (userId) {
      void presence.connected(userId, socket.id);
      socket.on('disconnect', () => void presence.disconnected(userId, socket.id));
    }

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

    // Rooms by kind and id, each kind with its own authoriser (rooms/).
    socket.on('room:join', async (request, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      const parsed = parseRoomRequest(request);
      if (!parsed) return reply({ kind: null, ids: [] });
      try {
        const allowed = await ROOM_AUTHORISERS[parsed.kind](deps, socket.data.userId, parsed.ids);
        if (allowed.length) await socket.join(allowed.map((id) => roomName(parsed.kind, id)));
        reply({ kind: parsed.kind, ids: allowed });
      } catch (error) {
        deps.log.error({ err: error, kind: parsed.kind }, 'room:join failed');
        reply({ kind: parsed.kind, ids: [] });
      }
    });
    socket.on('room:leave', async (request, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      const parsed = parseRoomRequest(request);
      if (!parsed) return reply({ kind: null, ids: [] });
      // the rooms of the handshake stay: the user's own room carries their events
      const ids = parsed.ids.filter((id) => !(parsed.kind === 'user' && id === socket.data.userId));
      await Promise.all(ids.map((id) => socket.leave(roomName(parsed.kind, id))));
      reply({ kind: parsed.kind, ids });
    });
  });
  const close = io.close.bind(io);
  io.close = (fn) =>
    close((err) => {
      presence.close();
      pub.disconnect();
      void disconnectSubscriber(sub).then(() => fn?.(err));
    });
  return io;
}

/**
 * The adapter's Redis connections, made to survive an outage: each has an error listener, the
 * subscriber waits for Redis as long as it takes (its subscriptions come back on reconnect), and
 * a publish that fails (the adapter forgets its promise) is reported instead of becoming an
 * unhandled rejection. Events published while Redis is down are lost; the data is not: once the
 * subscriber has subscribed again after a loss, `onResubscribed` tells this copy's sockets to
 * catch up (events published anywhere before that moment never reached them).
 */
function adapterConnections(deps: AppDeps, onResubscribed: () => void) {
  const report = throttledReporter((err, suppressed) => deps.log.warn({ err, suppressed }, 'Socket.IO adapter: Redis unavailable'));
  const pub = duplicateRedis(deps.redis);
  const sub = duplicateRedis(deps.redis, { maxRetriesPerRequest: null, commandTimeout: undefined });
  pub.on('error', report);
  sub.on('error', report);
  let wasReady = false;
  sub.on('ready', () => {
    if (!wasReady) {
      wasReady = true;
      return;
    }
    // 'ready' comes as ioredis sends the subscriptions again; a PING queued after them answers
    // once Redis has taken them, so no event published after the catch-up can be missed
    sub.ping().then(onResubscribed, report);
  });
  const publish = pub.publish.bind(pub) as (channel: string, message: string | Buffer) => Promise<number>;
  (pub as unknown as { publish: typeof publish }).publish = (channel, message) =>
    publish(channel, message).catch((error: unknown) => {
      report(error);
      return 0;
    });
  return { pub, sub };
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
