import { Emitter } from '@socket.io/redis-emitter';
import type { Redis } from 'ioredis';
import { sessionRoom, userRoom, type ServerToClientEvents } from '../../common/socket-events';
import type { ForgetSessions, Realtime } from './realtime';

/** The Redis channel prefix shared by the adapter (server) and the emitter (server and worker). */
export const socketChannelKey = (redisPrefix: string) => `${redisPrefix}:socket.io`;

/** The Redis channel every server copy's session cache listens on (core/sessions/session-cache.ts). */
export const sessionCacheChannel = (redisPrefix: string) => `${redisPrefix}:session-cache`;

/**
 * Realtime over the Redis emitter: every server process's adapter receives the event and
 * delivers it to its own sockets, so the caller needs no Socket.IO server of its own.
 */
export function createRealtime(
  redis: Redis,
  redisPrefix: string,
  onPublishError: (error: unknown) => void = () => {},
): Realtime & { emitter: Emitter<ServerToClientEvents> } {
  // The emitter publishes and forgets the promise: a failed publish (Redis down) would be an
  // unhandled rejection. An event is a hint to open pages, never the only copy of anything (the
  // data is in PostgreSQL), so one that cannot be sent is reported and dropped; once this
  // connection publishes again, every socket (on every server copy) is told to catch up.
  let dropped = false;
  const resync = () => {
    if (!dropped) return;
    dropped = false;
    (emitter as unknown as { emit(e: string): void }).emit('resync');
  };
  const publisher = {
    publish: (channel: string, message: string | Buffer) =>
      redis.publish(channel, message).then(
        (receivers) => {
          resync();
          return receivers;
        },
        (error: unknown) => {
          dropped = true;
          onPublishError(error);
        },
      ),
  };
  const emitter = new Emitter<ServerToClientEvents>(publisher, { key: socketChannelKey(redisPrefix) });
  redis.on('ready', resync);
  const toRooms: Realtime['toRooms'] = (rooms, event, payload, options) => {
    if (Array.isArray(rooms) && rooms.length === 0) return;
    // every socket is alone in a room named by its id, so leaving that room out skips the socket
    const except = [...(options?.except ? [options.except] : []), ...(options?.exceptRooms ?? [])];
    const target = except.length ? emitter.to(rooms).except(except) : emitter.to(rooms);
    (target as unknown as { emit(e: string, p: unknown): void }).emit(event, payload);
  };
  // This process's own session cache hears a forget at once; the other copies through Redis,
  // and the returned promise waits for Redis to take it, so the answer of the request that ended a
  // session leaves only after every copy that listens has been told.
  const forgetListeners = new Set<(which: ForgetSessions) => void>();
  const forgetSessions: Realtime['forgetSessions'] = async (which) => {
    if (!which.sessionIds?.length && !which.userIds?.length) return;
    for (const listener of forgetListeners) listener(which);
    await publisher.publish(sessionCacheChannel(redisPrefix), JSON.stringify(which));
  };
  return {
    emitter,
    async disconnectSessions(sessionIds) {
      if (sessionIds.length === 0) return;
      const forgotten = forgetSessions({ sessionIds });
      const rooms = sessionIds.map(sessionRoom);
      emitter.to(rooms).emit('session:revoked');
      emitter.in(rooms).disconnectSockets(true);
      await forgotten;
    },
    forgetSessions,
    reauthoriseRooms(request) {
      // every server copy's adapter hears it (server/realtime/reauthorise.ts acts on its own sockets)
      emitter.serverSideEmit('rooms:reauthorise', request);
    },
    onForgetSessions(listener) {
      forgetListeners.add(listener);
      return () => void forgetListeners.delete(listener);
    },
    toUser(userId, event, payload, options) {
      toRooms(userRoom(userId), event, payload, options);
    },
    toRooms,
  };
}
