import type { ServerEventName, ServerEventPayload } from '../../common/socket-events';

/**
 * What services may ask of the realtime layer. The server implements it over its Socket.IO
 * instance (with the Redis adapter, so every server process is reached); tests may pass a recorder.
 */
export interface Realtime {
  /** Disconnects every socket opened with one of these sessions (sign-out, password reset). */
  disconnectSessions(sessionIds: string[]): void;
  /** Sends an event to every socket of one user (room `user:<id>`). */
  toUser(userId: string, event: string, payload: unknown): void;
  /**
   * Sends a typed event (common/socket-events.ts) to the sockets in any of these rooms, on every
   * server process; a socket in several of them gets it once.
   */
  toRooms<E extends ServerEventName>(rooms: string | string[], event: E, ...args: ServerEventPayload<E>): void;
}

export const noopRealtime: Realtime = {
  disconnectSessions() {},
  toUser() {},
  toRooms() {},
};
