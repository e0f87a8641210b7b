import { useEffect } from 'react';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../common/socket-events';
import { reportSessionEvent } from './session';
import { trpc } from './trpc';

/**
 * One Socket.IO connection per signed-in browser tab, authenticated by the session cookie.
 * Visitors never connect. Later features subscribe to their own events through `getSocket()`.
 */
export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;
let socketUserId: string | null = null;

export function getSocket(): AppSocket | null {
  return socket;
}

function connect(userId: string): AppSocket {
  if (socket && socketUserId === userId) return socket;
  disconnect();
  socket = io({
    path: '/socket.io',
    withCredentials: true,
    // WebSocket first: its handshake always carries an Origin header, which the server requires.
    // (A same-origin long-polling GET carries none, and the server refuses it with 403.)
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
  });
  socketUserId = userId;
  return socket;
}

function disconnect(): void {
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
  socketUserId = null;
}

/** Mount once (in the app shell) with the signed-in user's id, or null for a visitor. */
export function useRealtimeConnection(userId: string | null): void {
  const utils = trpc.useUtils();

  useEffect(() => {
    if (!userId) {
      disconnect();
      return;
    }
    const s = connect(userId);
    const onUnreadChanged = () => {
      void utils.messages.unreadCount.invalidate();
    };
    const onSessionRevoked = () => {
      // The server ends this session's sockets right after; do not reconnect with a dead cookie.
      s.io.opts.reconnection = false;
      reportSessionEvent('revoked');
    };
    s.on('unread:changed', onUnreadChanged);
    s.on('session:revoked', onSessionRevoked);
    return () => {
      s.off('unread:changed', onUnreadChanged);
      s.off('session:revoked', onSessionRevoked);
    };
  }, [userId, utils]);

  // Leave for good when the shell unmounts (tab closing, hot reload).
  useEffect(() => () => disconnect(), []);
}
