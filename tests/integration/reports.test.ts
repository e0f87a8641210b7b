import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type MadeUser } from '../helpers/factories';
import { socketPool } from '../helpers/sockets';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';

// Issue 23 §8: a report keeps what was reported (text and file, out of the sender's reach), admins
// open it (each opening logged), remove the message or suspend the sender (no sign-in, no sessions).
let app: TestServer;
const sockets = socketPool();

beforeAll(async () => {
  app = await startTestServer({ workerQueues: [] });
});
afterAll(async () => {
  await app?.close();
});
afterEach(() => sockets.closeAll());

const PICTURE = Buffer.from('89504e470d0a1a0a-not-really-but-bytes-the-admin-must-see', 'utf8');

/** A processed chat picture of `owner`, as the media worker leaves it (ready, in storage). */
async function readyPicture(owner: MadeUser): Promise<string> {
  const id = randomUUID();
  const key = `message-attachments/${id}/file.png`;
  await app.deps.storage.put(key, PICTURE, 'image/png');
  await app.deps.db
    .insertInto('message_attachments')
    .values({ id, owner_id: owner.id, kind: 'image', status: 'ready', original_filename: 'proof.png', byte_size: PICTURE.length, storage_key: key, content_type: 'image/png' })
    .execute();
  return id;
}

async function adminClient(): Promise<{ admin: MadeUser; asAdmin: TestClient }> {
  const admin = await makeUser(app.deps.db);
  await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
  return { admin, asAdmin: await clientAs(app, admin.id) };
}

/** A picture-only message from `sender` to `recipient`, reported by the recipient. */
async function reportedPicture() {
  const [sender, recipient] = await Promise.all([makeUser(app.deps.db), makeUser(app.deps.db)]);
  const [asSender, asRecipient] = await Promise.all([clientAs(app, sender.id), clientAs(app, recipient.id)]);
  const attachmentId = await readyPicture(sender);
  const message = await asSender.trpc.messages.send.mutate({ username: recipient.username, attachmentId, clientId: randomUUID() });
  const report = await asRecipient.trpc.messages.report.mutate({ messageId: message.id, reason: 'threatening picture' });
  return { sender, recipient, asSender, asRecipient, attachmentId, message, report };
}

describe('a report keeps what was reported', () => {
  it('a picture-only message: the sender deleting it removes no evidence, admins open it (logged), nobody else reaches it', async () => {
    const { asSender, asRecipient, attachmentId, message, report } = await reportedPicture();
    expect((await asSender.fetch(`/media/messages/${attachmentId}`)).status).toBe(200);
    await asSender.trpc.messages.delete.mutate({ id: message.id });
    expect((await asSender.fetch(`/media/messages/${attachmentId}`)).status).toBe(404);

    const { admin, asAdmin } = await adminClient();
    const listed = (await asAdmin.trpc.messages.adminReports.query({})).reports.find((r) => r.id === report.id);
    expect(listed).toMatchObject({ reason: 'threatening picture', evidence: null });
    const opened = await asAdmin.trpc.messages.openReport.mutate({ id: report.id });
    expect(opened).toMatchObject({ id: report.id, messageId: null, content: null, evidence: { kind: 'image', name: 'proof.png', url: `/media/reports/${report.id}` }, views: 1 });

    const served = await asAdmin.fetch(opened.evidence!.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PICTURE)).toBe(true);
    // the sender (and the reporter, and visitors) cannot fetch the report's copy
    expect((await asSender.fetch(opened.evidence!.url)).status).toBe(403);
    expect((await asRecipient.fetch(opened.evidence!.url)).status).toBe(403);
    expect((await app.client().fetch(opened.evidence!.url)).status).toBe(401);
    await expectTrpcError(asRecipient.trpc.messages.openReport.mutate({ id: report.id }), 'FORBIDDEN');

    await asAdmin.trpc.messages.openReport.mutate({ id: report.id });
    const views = await app.deps.db.selectFrom('report_views').select(['admin_id']).where('report_id', '=', report.id).execute();
    expect(views).toEqual([{ admin_id: admin.id }, { admin_id: admin.id }]);
  });

  it('an admin removes the reported message for both participants and the report is closed', async () => {
    const { asRecipient, sender, message, report } = await reportedPicture();
    const { asAdmin } = await adminClient();
    expect((await asRecipient.trpc.messages.thread.query({ username: sender.username })).messages.map((m) => m.id)).toEqual([message.id]);
    await asAdmin.trpc.messages.removeReportedMessage.mutate({ id: report.id });
    expect((await asRecipient.trpc.messages.thread.query({ username: sender.username })).messages).toEqual([]);
    const row = await app.deps.db.selectFrom('message_reports').select(['status', 'resolution', 'evidence_key']).where('id', '=', report.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'closed', resolution: 'content-removed' });
    expect(await app.deps.storage.exists(row.evidence_key!)).toBe(true);
  });
});

describe('suspending the sender', () => {
  it('ends their sessions at once (sockets disconnected) and they cannot sign in again, in clear words', async () => {
    const { sender, asSender, report } = await reportedPicture();
    const socket = await sockets.open(app, sender);
    const revoked = new Promise<void>((resolve) => socket.once('session:revoked', () => resolve()));
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    expect(await asSender.trpc.messages.unreadCount.query()).toBe(0);

    const { asAdmin } = await adminClient();
    expect(await asAdmin.trpc.messages.suspendReportedSender.mutate({ id: report.id })).toMatchObject({ id: report.id });
    await revoked;
    await disconnected;
    await expectTrpcError(asSender.trpc.messages.unreadCount.query(), 'UNAUTHORIZED');
    expect(await app.deps.db.selectFrom('sessions').select('id').where('user_id', '=', sender.id).execute()).toEqual([]);

    const fresh = app.client();
    await expectTrpcError(
      fresh.trpc.auth.signIn.mutate({ email: sender.email, password: sender.password }),
      'FORBIDDEN',
      'This account has been suspended after a report. Write to safety@creatorhub.app if you think this is a mistake.',
    );
    expect(fresh.cookies().get('session')).toBeUndefined();
    const row = await app.deps.db.selectFrom('message_reports').select(['status', 'resolution']).where('id', '=', report.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'closed', resolution: 'account-suspended' });
  });
});
