import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type MadeUser } from '../helpers/factories';
import { jpegWithExif, makeVideo } from '../helpers/media-fixtures';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { tusUpload, uploadFields, waitFor } from '../helpers/tus';
import { expireUnsentAttachments } from '../../worker/jobs/unsent-attachments';
import { uploadAttachment, attachmentRowOf, settledAttachment } from '../helpers/attachments';

// Issue 23 item 1: a fan's chat attachments cannot stall creators' posts, nor pile up. The real
// server with every worker (posts and attachments on queues of their own).
let app: TestServer;
let work: string;

beforeAll(async () => {
  app = await startTestServer();
  work = await mkdtemp(path.join(tmpdir(), 'attachment-limits-'));
}, 60_000);
afterAll(async () => {
  await app?.close();
  if (work) await rm(work, { recursive: true, force: true });
});


async function fan(): Promise<{ user: MadeUser; client: TestClient }> {
  const user = await makeUser(app.deps.db);
  return { user, client: await clientAs(app, user.id) };
}

/** Rows as the upload makes them, without their bytes: what the per-user bounds count. */
async function insertAttachments(ownerId: string, count: number, opts: { status: 'processing' | 'ready'; bytes: number }) {
  for (let i = 0; i < count; i++) {
    await app.deps.db
      .insertInto('message_attachments')
      .values({
        owner_id: ownerId,
        kind: 'image',
        original_filename: `pending-${i}.jpg`,
        byte_size: opts.bytes,
        status: opts.status,
        source_key: opts.status === 'processing' ? `messages/${randomUUID()}/source.jpg` : null,
        storage_key: opts.status === 'ready' ? `messages/${randomUUID()}/file.jpg` : null,
      })
      .execute();
  }
}

async function filesUnder(prefix: string): Promise<string[]> {
  const root = app.deps.config.STORAGE_DIR;
  const entries = await readdir(path.join(root, prefix), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

describe('attachments beside posts', () => {
  it("processes a creator's post while a fan's videos fill the attachment queue", async () => {
    const { client: asFan } = await fan();
    const clip = await readFile(await makeVideo(work, { name: 'fan.mp4', seconds: 15, width: 640, height: 360 }));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const up = await uploadAttachment(asFan, `clip-${i}.mp4`, clip);
      expect(up.status).toBe(201);
      ids.push(up.json.attachment!.id);
    }
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const asCreator = await clientAs(app, creator.id);
    const post = await readFile(await makeVideo(work, { name: 'post.mp4', seconds: 1, width: 320, height: 240 }));
    const { postId } = await tusUpload(asCreator, post, uploadFields('post.mp4'));
    await waitFor(async () => {
      const row = await app.deps.db.selectFrom('posts').select('status').where('id', '=', postId).executeTakeFirstOrThrow();
      return row.status !== 'processing' ? row : null;
    }, 60_000, 'the post');
    const states = await Promise.all(ids.map(async (id) => (await attachmentRowOf(app, id))!.status));
    // the fan's third video waits for the two before it on its own queue, not the post
    expect(states).toContain('processing');
    expect((await app.deps.db.selectFrom('posts').select('status').where('id', '=', postId).executeTakeFirstOrThrow()).status).toBe('published');
    for (const id of ids) expect((await settledAttachment(app, id)).status).toBe('ready');
  }, 120_000);
});

describe('per-user bounds on attachments', () => {
  it('refuses a fourth file while three are processing, with its reason, and stores nothing', async () => {
    const { user, client } = await fan();
    await insertAttachments(user.id, 3, { status: 'processing', bytes: 1000 });
    const refused = await uploadAttachment(client, 'photo.jpg', await jpegWithExif(64, 64));
    expect(refused).toMatchObject({
      status: 429,
      json: { error: { code: 'TOO_MANY_PROCESSING', message: 'You have 3 files still being processed. Wait for one to finish, then attach another.' } },
    });
    const rows = await app.deps.db.selectFrom('message_attachments').select('id').where('owner_id', '=', user.id).execute();
    expect(rows).toHaveLength(3);

    // one done: room for one more
    await app.deps.db.updateTable('message_attachments').set({ status: 'failed', failure_reason: 'x' }).where('id', '=', rows[0]!.id).execute();
    expect((await uploadAttachment(client, 'photo.jpg', await jpegWithExif(64, 64))).status).toBe(201);
  });

  it('refuses a file that would take the unsent files past 50 MB; sent ones do not count', async () => {
    const { user, client } = await fan();
    const other = await makeUser(app.deps.db);
    await insertAttachments(user.id, 5, { status: 'ready', bytes: 9 * 1024 * 1024 });
    const photo = await jpegWithExif(1600, 1200);
    const refused = await uploadAttachment(client, 'photo.jpg', Buffer.concat([photo, Buffer.alloc(6 * 1024 * 1024)]));
    expect(refused).toMatchObject({
      status: 429,
      json: {
        error: { code: 'UNSENT_QUOTA', message: 'Your files not sent yet would add up to more than 50 MB. Send them first; unsent files are removed after 6 hours.' },
      },
    });
    // one of them sent in a message: no longer counted
    const [first] = await app.deps.db.selectFrom('message_attachments').select('id').where('owner_id', '=', user.id).limit(1).execute();
    await app.deps.db.insertInto('messages').values({ sender_id: user.id, recipient_id: other.id, attachment_id: first!.id, media_type: 'image' }).execute();
    expect((await uploadAttachment(client, 'photo.jpg', photo)).status).toBe(201);
  });
});

describe('chat bounds', () => {
  it('refuses a chat video larger than 1080p and one longer than 10 minutes, with their reasons', async () => {
    const { client } = await fan();
    const uhd = await readFile(await makeVideo(work, { name: 'uhd.mp4', seconds: 1, width: 3840, height: 2160, fps: 1, audio: false }));
    // eleven minutes at one frame a second: a few hundred tiny frames
    const long = await readFile(await makeVideo(work, { name: 'long.mp4', seconds: 11 * 60, width: 64, height: 64, fps: 1, audio: false }));
    const [a, b] = [await uploadAttachment(client, 'uhd.mp4', uhd), await uploadAttachment(client, 'long.mp4', long)];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(await settledAttachment(app, a.json.attachment!.id)).toMatchObject({ status: 'failed', failure_reason: "The video's picture is too large: at most 1920x1080 pixels (1080p)." });
    expect(await settledAttachment(app, b.json.attachment!.id)).toMatchObject({ status: 'failed', failure_reason: 'The video is too long: at most 10 minutes.' });
  }, 120_000);
});

describe('unsent attachments', () => {
  it('are deleted with their files a few hours after their upload; sent ones stay', async () => {
    const { user, client } = await fan();
    const other = await makeUser(app.deps.db);
    const [unsent, sent] = [await uploadAttachment(client, 'a.jpg', await jpegWithExif(64, 64)), await uploadAttachment(client, 'b.jpg', await jpegWithExif(64, 64))];
    const unsentId = unsent.json.attachment!.id;
    const sentId = sent.json.attachment!.id;
    await client.trpc.messages.send.mutate({ username: other.username, attachmentId: sentId, clientId: randomUUID() });
    await Promise.all([settledAttachment(app, unsentId), settledAttachment(app, sentId)]);
    // the served file and its blurred preview (a pay-per-view file shows it before it is bought);
    // the uploaded original goes once the attachment has settled, on a busy machine a moment later
    await expect.poll(async () => (await filesUnder(`messages/${unsentId}`)).length).toBe(2);

    // not yet old enough: kept
    await expireUnsentAttachments(app.deps);
    expect(await attachmentRowOf(app, unsentId)).toBeDefined();

    await sql`update message_attachments set created_at = now() - interval '7 hours' where owner_id = ${user.id}`.execute(app.deps.db);
    const swept = await expireUnsentAttachments(app.deps);
    expect(swept.deleted).toBeGreaterThanOrEqual(1);
    expect(await attachmentRowOf(app, unsentId)).toBeUndefined();
    expect(await filesUnder(`messages/${unsentId}`)).toEqual([]);
    expect((await attachmentRowOf(app, sentId))?.status).toBe('ready');
    expect((await client.fetch(`/media/messages/${sentId}`)).status).toBe(200);
  });
});
