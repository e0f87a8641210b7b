import { randomUUID } from 'node:crypto';
import type { MessageAttachmentDto } from '../../common/message-dtos';
import type { TestClient, TestServer } from './test-server';
import { waitFor } from './tus';

/** A chat attachment's raw upload (POST /message-attachments), as the chat composer sends it. */
export async function uploadAttachment(client: TestClient, name: string, body: Buffer) {
  const res = await client.fetch(`/message-attachments?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': 'application/octet-stream' },
  });
  return { status: res.status, json: (await res.json()) as { attachment?: MessageAttachmentDto; error?: { code: string; message: string } } };
}

/** The attachment's row, or undefined once it is gone. */
export const attachmentRowOf = (app: TestServer, id: string) =>
  app.deps.db.selectFrom('message_attachments').selectAll().where('id', '=', id).executeTakeFirst();

/** The attachment's row once the worker has finished with it (ready or failed). */
export const settledAttachment = (app: TestServer, id: string) =>
  waitFor(async () => {
    const row = await attachmentRowOf(app, id);
    return row && row.status !== 'processing' ? row : null;
  }, 60_000, `attachment ${id}`);

/** A one-pixel PNG's first bytes: what a ready attachment's stored file holds in tests. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** A chat attachment of the owner's, stored and ready (as if processed), for messages that carry a file. */
export async function readyAttachment(server: TestServer, ownerId: string): Promise<string> {
  const id = randomUUID();
  const key = `messages/${id}/run/file.png`;
  await server.deps.storage.put(key, PNG, 'image/png');
  await server.deps.db
    .insertInto('message_attachments')
    .values({ id, owner_id: ownerId, kind: 'image', status: 'ready', original_filename: 'set.png', byte_size: PNG.length, storage_key: key, content_type: 'image/png' })
    .execute();
  return id;
}
