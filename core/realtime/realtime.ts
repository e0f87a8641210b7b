import { isSocketId, type RoomReauthorisation, type ServerEventName, type ServerEventPayload } from '../../common/socket-events';

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
/**
 * What every server copy's session cache (core/sessions/session-cache.ts) is told to drop: these
 * sessions, and every session of these users (whose signed-in details, USER_DTO_COLUMNS, changed).
 */
export interface ForgetSessions {
  sessionIds?: string[];
  userIds?: string[];
}

export interface Realtime {
  /**
   * Ends these sessions on every server copy (sign-out, revoked session, password change or
   * reset, account deletion): each copy's session cache forgets them and their sockets are told
   * and disconnected. Call it after the commit that deleted them, and await it: it resolves once
   * Redis has the news (and never rejects; a failure is reported).
   */
  disconnectSessions(sessionIds: string[]): Promise<void>;
  /**
   * Every server copy's session cache forgets these sessions, or the sessions of these users, so
   * their next request reads them again; this process's caches at once, the others through Redis.
   * After the commit; resolves once Redis has it (never rejects; a failure is reported).
   */
  forgetSessions(which: ForgetSessions): Promise<void>;
  /** Tells `listener` of every forgetSessions made in this process (a server's own cache); returns the unsubscribe. */
  onForgetSessions(listener: (which: ForgetSessions) => void): () => void;
  /**
   * Permissions changed (visibility, a block, a subscription ended): every server copy runs the
   * room authoriser again for the sockets concerned and takes them out of the rooms they may no
   * longer hear (each removed socket is told with `rooms:revoked`). After the commit; fire and forget.
   */
  reauthoriseRooms(request: RoomReauthorisation): void;
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
  disconnectSessions: async () => {},
  forgetSessions: async () => {},
  onForgetSessions: () => () => {},
  reauthoriseRooms() {},
  toUser() {},
  toRooms() {},
};
