import { presenceRoom } from '../../common/socket-events';
import type { AppDeps } from '../../core/deps';
import { showsOnlineStatus } from '../../domain/access/messaging.queries';
import { PRESENCE_REFRESH_MS, refreshSockets, socketOffline, socketOnline } from '../../domain/presence/presence';

/**
 * Online state of signed-in sockets (domain/presence/presence.ts keeps it in Redis): a user's
 * first socket anywhere makes them online, their last one closing makes them offline, and either
 * change is told to the sockets watching them (room `presence:<id>`), unless the user hides their
 * online status. This process refreshes its own sockets' entries; a crashed copy's entries expire.
 * Presence is a courtesy: a Redis failure is logged and never refuses a socket.
 */
export function createPresenceTracker(deps: Pick<AppDeps, 'db' | 'redis' | 'config' | 'log' | 'realtime'>) {
  const prefix = deps.config.REDIS_PREFIX;
  const live = new Map<string, string>(); // socket id -> user id
  const report = (error: unknown) => deps.log.warn({ err: error }, 'presence: Redis unavailable');

  const announce = async (userId: string, online: boolean) => {
    if (!(await showsOnlineStatus(deps.db, userId))) return;
    deps.realtime.toRooms(presenceRoom(userId), 'presence', { userId, online });
  };

  const timer = setInterval(() => {
    const sockets = [...live].map(([socketId, userId]) => ({ socketId, userId }));
    refreshSockets(deps.redis, prefix, sockets).catch(report);
  }, PRESENCE_REFRESH_MS);
  timer.unref();

  return {
    async connected(userId: string, socketId: string) {
      live.set(socketId, userId);
      try {
        if (await socketOnline(deps.redis, prefix, userId, socketId)) await announce(userId, true);
      } catch (error) {
        report(error);
      }
    },
    async disconnected(userId: string, socketId: string) {
      live.delete(socketId);
      try {
        if (await socketOffline(deps.redis, prefix, userId, socketId)) await announce(userId, false);
      } catch (error) {
        report(error);
      }
    },
    close() {
      clearInterval(timer);
    },
  };
}
