import { createAdapter } from '@socket.io/redis-adapter';
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { sessionRoom, userRoom, type ClientToServerEvents, type ServerToClientEvents } from '../../common/socket-events';
import { readSessionCookie } from '../auth/cookies';
import { validateSessionToken } from '../auth/session';
import type { AppDeps } from '../deps';
import { isAllowedOrigin } from '../http/csrf';
import { socketChannelKey } from './emitter';

interface SocketData {
  userId: string | null;
  sessionId: string | null;
}

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * Socket.IO on the HTTP server. The handshake is authenticated from the session cookie:
 * signed-in sockets join `user:<id>` and `session:<id>`; visitors connect without rooms.
 * The Redis adapter lets every server process deliver events emitted anywhere.
 */
export function attachSocketServer(httpServer: HttpServer, deps: AppDeps): IoServer {
  const pub = deps.redis.duplicate();
  const sub = deps.redis.duplicate();
  const io: IoServer = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    adapter: createAdapter(pub, sub, { key: socketChannelKey(deps.config.REDIS_PREFIX) }),
    // Cross-site WebSocket hijacking: only this site's pages may open a socket with our cookie.
    allowRequest: (req, callback) => callback(null, isAllowedOrigin(req.headers.origin, req.headers.host, deps.config)),
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
    if (userId && sessionId) void socket.join([userRoom(userId), sessionRoom(sessionId)]);
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
