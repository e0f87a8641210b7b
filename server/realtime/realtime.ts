/**
 * What services may ask of the realtime layer. The server implements it over its Socket.IO
 * instance (with the Redis adapter, so every server process is reached); tests may pass a recorder.
 */
export interface Realtime {
  /** Disconnects every socket opened with one of these sessions (sign-out, password reset). */
  disconnectSessions(sessionIds: string[]): void;
  /** Sends an event to every socket of one user (room `user:<id>`). */
  toUser(userId: string, event: string, payload: unknown): void;
}

export const noopRealtime: Realtime = {
  disconnectSessions() {},
  toUser() {},
};
