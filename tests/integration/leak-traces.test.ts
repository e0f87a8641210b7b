import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leakUploadUrl } from '../../common/forensics';
import { makePost, makeUnlock, makeUser, type MadeUser } from '../helpers/factories';
import { makePicturePost, setMarkPaidPictures } from '../helpers/picture-posts';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { waitFor } from '../helpers/tus';

// Issue 49 item 5: who may trace a leak, a free video's trace (nothing is marked), a marked picture's, logged.

let app: TestServer;
let creator: MadeUser;
let freePostId: string;

beforeAll(async () => {
  app = await startTestServer();
  creator = await makeUser(app.deps.db, { isCreator: true });
  freePostId = (await makePost(app.deps.db, null, { creatorId: creator.id, kind: 'video' })).id;
}, 60_000);
afterAll(async () => {
  await app?.close();
});

const leak = (): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from('not really a video, but a free post answers before any decoding'));
const upload = (client: Awaited<ReturnType<typeof clientAs>>, postId: string, body: Uint8Array<ArrayBuffer> = leak()) =>
  client.fetch(leakUploadUrl(postId), { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } });
const traceDone = (client: Awaited<ReturnType<typeof clientAs>>, postId: string, id: string) =>
  waitFor(async () => {
    const traces = await client.trpc.forensics.traces.query({ postId });
    return traces.find((t) => t.id === id && t.status === 'done') ?? null;
  }, 60_000, 'the trace');

describe('tracing a leak', () => {
  it('answers that nothing is marked for a free video, and logs who asked with the file\'s hash', async () => {
    const asCreator = await clientAs(app, creator.id);
    const res = await upload(asCreator, freePostId);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const done = await traceDone(asCreator, freePostId, id);
    expect(done.verdict).toEqual({ kind: 'unmarked' });
    expect(done.requestedBy).toBe(creator.username);
    expect(done.fileSha256).toMatch(/^[0-9a-f]{64}$/);
    const row = await app.deps.db.selectFrom('leak_traces').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ requested_by: creator.id, status: 'done', leak_key: null });
  });

  it('refuses anyone but the post\'s creator and admins, and another creator\'s post id', async () => {
    const fan = await makeUser(app.deps.db);
    const otherCreator = await makeUser(app.deps.db, { isCreator: true });
    for (const user of [fan, otherCreator]) {
      const client = await clientAs(app, user.id);
      expect((await upload(client, freePostId)).status).toBe(403);
      await expectTrpcError(client.trpc.forensics.traces.query({ postId: freePostId }), 'FORBIDDEN');
    }
    expect((await upload(app.client(), freePostId)).status).toBe(401);
    const admin = await makeUser(app.deps.db);
    await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const asAdmin = await clientAs(app, admin.id);
    expect((await upload(asAdmin, freePostId)).status).toBe(202);
    expect((await asAdmin.trpc.forensics.recent.query()).length).toBeGreaterThanOrEqual(2);
  });

  it('names the buyer whose marked copy of a paid picture leaked, re-encoded smaller', async () => {
    const { db, storage } = app.deps;
    await setMarkPaidPictures(db, creator.id, true);
    const post = await makePicturePost(db, storage, { creatorId: creator.id, unlock: { priceCents: 1500, mode: 'everyone' } });
    const buyers = await Promise.all([makeUser(db), makeUser(db), makeUser(db)]);
    const copies: Buffer[] = [];
    for (const buyer of buyers) {
      await makeUnlock(db, { fanId: buyer.id, postId: post.id });
      const res = await (await clientAs(app, buyer.id)).fetch(`/media/${post.id}/web`);
      expect(res.status).toBe(200);
      copies.push(Buffer.from(await res.arrayBuffer()));
    }
    // the second buyer's copy, posted elsewhere at 80 % and JPEG quality 60
    const leaked = await sharp(copies[1]).resize({ width: 864 }).jpeg({ quality: 60 }).toBuffer();
    const asCreator = await clientAs(app, creator.id);
    const res = await upload(asCreator, post.id, new Uint8Array(leaked));
    expect(res.status).toBe(202);
    const done = await traceDone(asCreator, post.id, ((await res.json()) as { id: string }).id);
    expect(done.verdict).toMatchObject({ kind: 'identified', buyer: { id: buyers[1]!.id, username: buyers[1]!.username } });
  }, 120_000);
});
