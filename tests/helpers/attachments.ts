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
