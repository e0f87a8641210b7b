import { createTRPCClient, httpLink } from '@trpc/client';
import { io as connect, type Socket } from 'socket.io-client';
import superjson from 'superjson';
import { SOCKET_ID_HEADER, type ClientToServerEvents, type RoomAck, type RoomRequest, type ServerToClientEvents } from '../../common/socket-events';
import type { AppRouter } from '../../server/trpc/router';
import { makeSessionCookie, type MadeUser } from './factories';
import type { TestClient, TestServer } from './test-server';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Browser-like Socket.IO clients (our Origin, the user's session cookie, websocket only), kept so
 * a test file can disconnect them all after each test: `afterEach(sockets.closeAll)`.
 */
export function socketPool() {
  const open: ClientSocket[] = [];
  return {
    async open(server: TestServer, user: MadeUser | null): Promise<ClientSocket> {
      const cookie = user ? (await makeSessionCookie(server.deps.db, user.id)).cookie : null;
      const socket: ClientSocket = connect(server.url, {
        transports: ['websocket'],
        extraHeaders: { origin: server.url, ...(cookie ? { cookie } : {}) },
        reconnection: false,
      });
      open.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      return socket;
    },
    closeAll() {
      for (const socket of open.splice(0)) socket.disconnect();
    },
  };
}

/**
 * A tRPC client sending as the browser tab that owns `socketId` (the SOCKET_ID_HEADER the SPA's
 * link adds), with `client`'s cookies and Origin.
 */
export function trpcAsTab(server: TestServer, client: TestClient, socketId: string | undefined) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${server.url}/trpc`,
        transformer: superjson,
        headers: socketId === undefined ? {} : { [SOCKET_ID_HEADER]: socketId },
        fetch: (input, init) => client.fetch(String(input).slice(server.url.length), init as RequestInit),
      }),
    ],
  });
}

/** Asks to join rooms; answers the ids the server let the socket into. */
export function join(socket: ClientSocket, ids: string[], kind: RoomRequest['kind']): Promise<string[]> {
  return new Promise((resolve) => socket.emit('room:join', { kind, ids }, (ack: RoomAck) => resolve(ack.ids)));
}

type Payload<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>[0];

/** Every payload of `event` the socket hears from now on; `next(match)` waits for one that matches. */
export function record<E extends keyof ServerToClientEvents>(socket: ClientSocket, event: E) {
  const seen: Payload<E>[] = [];
  (socket.on as (e: string, fn: (p: unknown) => void) => void)(event, (payload) => seen.push(payload as Payload<E>));
  return {
    seen,
    async next(match: (p: Payload<E>) => boolean = () => true, timeoutMs = 10_000): Promise<Payload<E>> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = seen.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching ${event}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}
