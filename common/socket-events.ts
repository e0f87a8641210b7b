/** Socket.IO events the server and worker send to browsers. */
export interface ServerToClientEvents {
  /** the user's unread message count changed; the client refetches it */
  'unread:changed': () => void;
  /** this session was signed out (elsewhere); the socket is disconnected right after */
  'session:revoked': () => void;
}

export type ClientToServerEvents = Record<string, never>;

export const userRoom = (userId: string) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
