import { randomUUID } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import type { MessageDto } from '../../common/message-dtos';
import type { ClientToServerEvents, ServerToClientEvents } from '../../common/socket-events';
import { trpcMutation } from './processes';
import type { TestClient } from './test-server';

/** messages.send over plain HTTP, as the composer sends it (a fresh clientId each time). */
export async function sendMessage(client: TestClient, username: string, content: string) {
  const res = await trpcMutation(client, 'messages.send', { username, content, clientId: randomUUID() });
  const body = res.body as { result?: { data: { json: MessageDto } }; error?: { json: { message: string } } };
  return { status: res.status, ms: res.ms, message: body.result?.data.json ?? null, error: body.error?.json ?? null };
}

async function messagesSince(client: TestClient, afterId: string) {
  const input = encodeURIComponent(JSON.stringify({ json: { afterId } }));
  const res = await client.fetch(`/trpc/messages.since?input=${input}`);
  const body = (await res.json()) as { result: { data: { json: { messages: MessageDto[]; hasMore: boolean } } } };
  return body.result.data.json;
}

export interface MessagesPage {
  /** every message the page has shown, live or caught up, by id */
  seen: Map<string, MessageDto>;
  /** how many times the server told it to catch up (`resync`) */
  resyncs(): number;
  connected(): boolean;
  close(): void;
}

/**
 * A reader's open page of messages on the server at `url`: its socket (no reconnection: a page
 * that lost it would show it), the live `message:new` events, and the catch-up
 * (`messages.since` after the newest it has) that use-live-messages.ts runs when told `resync`.
 * Resolves once the socket is connected.
 */
export async function openMessagesPage(url: string, reader: { token: string; client: TestClient }): Promise<MessagesPage> {
  const seen = new Map<string, MessageDto>();
  let newest: string | null = null;
  let resyncs = 0;
  const note = (m: MessageDto) => {
    seen.set(m.id, m);
    newest = m.id;
  };
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(url, {
    transports: ['websocket'],
    extraHeaders: { origin: url, cookie: `session=${reader.token}` },
    reconnection: false,
  });
  socket.on('message:new', ({ message }) => note(message));
  socket.on('resync', () => {
    resyncs += 1;
    void (async () => {
      for (let more = true; more && newest; ) {
        const page = await messagesSince(reader.client, newest);
        page.messages.forEach(note);
        more = page.hasMore && page.messages.length > 0;
      }
      // a catch-up that failed leaves its messages unseen, which is what the tests look at
    })().catch(() => undefined);
  });
  try {
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('connect_error', reject));
  } catch (error) {
    socket.disconnect();
    throw error;
  }
  return { seen, resyncs: () => resyncs, connected: () => socket.connected, close: () => void socket.disconnect() };
}
