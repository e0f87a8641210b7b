import { isSocketId, type ServerEventName, type ServerEventPayload } from '../../common/socket-events';

/** A Socket.IO socket id checked by `socketIdFromHeader`: the only thing `except` accepts. */
export type SocketId = string & { readonly __brand: 'SocketId' };

/**
 * The socket of the browser tab whose request is being served (tRPC context `socketId`), or
 * null when it sent none. That tab applied its change already, so the events it causes skip it.
 */
export interface EmitOrigin {
  socketId: SocketId | null;
}

/** The `x-socket-id` request header as a socket id; absent, repeated or malformed is null (nobody left out). */
export function socketIdFromHeader(header: string | string[] | undefined): SocketId | null {
  return isSocketId(header) ? (header as SocketId) : null;
}

export interface EmitOptions {
  /** this socket does not get the event (the actor's own tab); null leaves nobody out */
  except?: SocketId | null;
  /** the sockets in these rooms do not get it either (they are sent a copy of their own) */
  exceptRooms?: string[];
}

/** Events that carry one payload (every event but the argument-less ones). */
export type PayloadEventName = {
  [E in ServerEventName]: ServerEventPayload<E> extends [unknown] ? E : never;
}[ServerEventName];

/**
 * What services may ask of the realtime layer. The server implements it over its Socket.IO
 * instance (with the Redis adapter, so every server process is reached); tests may pass a recorder.
 */
export interface Realtime {
  /** Disconnects every socket opened with one of these sessions (sign-out, password reset). */
  disconnectSessions(sessionIds: string[]): void;
  /** Sends a typed event to every socket of one user (room `user:<id>`), on every server process. */
  toUser<E extends PayloadEventName>(userId: string, event: E, payload: ServerEventPayload<E>[0], options?: EmitOptions): void;
  /**
   * Sends a typed event (common/socket-events.ts) to the sockets in any of these rooms, on every
   * server process; a socket in several of them gets it once, the `except` socket and the sockets
   * in `exceptRooms` not at all.
   */
  toRooms<E extends PayloadEventName>(rooms: string | string[], event: E, payload: ServerEventPayload<E>[0], options?: EmitOptions): void;
}

export const noopRealtime: Realtime = {
  disconnectSessions() {},
  toUser() {},
  toRooms() {},
};
