import { readdir } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureBytes, makeUnlock, makeUser, type MadeUser } from '../../../tests/helpers/factories';
import { makePicturePost, setMarkPaidPictures, type PictureBytes } from '../../../tests/helpers/picture-posts';
import { startTestServer, type TestClient, type TestServer } from '../../../tests/helpers/test-server';
import { clientAs } from '../../../tests/helpers/trpc';
import type { MadePost } from '../../../tests/helpers/factories';

/**
 * The per-buyer mark on paid pictures (issue 49 item 4, docs/media.md "The picture mark"): with
 * the creator's setting on, every size of a pay-per-view or premium picture is drawn per buyer.
 */
type PicturePost = MadePost & { bytes: PictureBytes };
const SIZES = ['original', 'web', 'thumb'] as const;
const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

async function get(client: TestClient, post: PicturePost, variant: string, init?: RequestInit) {
  return client.fetch(`/media/${post.id}/${variant}`, { redirect: 'manual', ...init });
}

describe.each(['disk', 's3'] as const)('paid pictures marked per buyer (%s storage)', (storage) => {
  let app: TestServer;
  let creator: MadeUser;
  let ppv: PicturePost;
  let free: PicturePost;
  let as: { owner: TestClient; fanA: TestClient; fanB: TestClient; stranger: TestClient };

  beforeAll(async () => {
    app = await startTestServer({ storage, workerQueues: [] });
    const { db } = app.deps;
    creator = await makeUser(db, { isCreator: true });
    ppv = await makePicturePost(db, app.deps.storage, { creatorId: creator.id, unlock: { priceCents: 1500, mode: 'everyone' }, title: 'Golden hour' });
    free = await makePicturePost(db, app.deps.storage, { creatorId: creator.id, title: 'Free one' });
    const [fanA, fanB, stranger] = await Promise.all([makeUser(db), makeUser(db), makeUser(db)]);
    await makeUnlock(db, { fanId: fanA.id, postId: ppv.id });
    await makeUnlock(db, { fanId: fanB.id, postId: ppv.id });
    as = { owner: await clientAs(app, creator.id), fanA: await clientAs(app, fanA.id), fanB: await clientAs(app, fanB.id), stranger: await clientAs(app, stranger.id) };
  });
  afterAll(async () => {
    await app?.close();
  });

  it('with the setting off, buyers get the stored picture, all the same bytes', async () => {
    await setMarkPaidPictures(app.deps.db, creator.id, false);
    for (const variant of SIZES) {
      for (const fan of [as.fanA, as.fanB]) {
        const res = await get(fan, ppv, variant);
        // disk streams the stored file; S3 redirects to it
        if (storage === 's3') expect(res.status, variant).toBe(302);
        else expect(await bytesOf(res), variant).toEqual(ppv.bytes[variant]);
      }
    }
  });

  it('with the setting on, each buyer gets every size with their own mark, the same bytes on every request', async () => {
    await as.owner.trpc.mediaSettings.save.mutate({ watermarkEnabled: true, watermarkText: null, watermarkPosition: 'center', markPaidPictures: true });
    expect((await as.owner.trpc.mediaSettings.get.query()).markPaidPictures).toBe(true);
    for (const variant of SIZES) {
      const a = await get(as.fanA, ppv, variant);
      const b = await get(as.fanB, ppv, variant);
      // served by the app itself in both storage modes: no redirect to the unmarked object
      expect([a.status, b.status], variant).toEqual([200, 200]);
      expect(a.headers.get('cache-control')).toMatch(/^private/);
      expect(a.headers.get('content-type')).toBe('image/jpeg');
      const [bytesA, bytesB] = [await bytesOf(a), await bytesOf(b)];
      expect(bytesA.equals(ppv.bytes[variant]), `${variant}: A's copy is marked`).toBe(false);
      expect(bytesB.equals(ppv.bytes[variant]), `${variant}: B's copy is marked`).toBe(false);
      expect(bytesA.equals(bytesB), `${variant}: A and B differ`).toBe(false);
      // the same picture, the same size
      const [stored, marked] = await Promise.all([sharp(ppv.bytes[variant]).metadata(), sharp(bytesA).metadata()]);
      expect([marked.width, marked.height]).toEqual([stored.width, stored.height]);
      // again: the same bytes (from the cache), and a 304 for the ETag
      const again = await get(as.fanA, ppv, variant);
      expect(await bytesOf(again)).toEqual(bytesA);
      const etag = again.headers.get('etag')!;
      expect((await get(as.fanA, ppv, variant, { headers: { 'if-none-match': etag } })).status).toBe(304);
    }
    // one copy kept per buyer and size
    expect((await readdir(app.deps.config.MARK_CACHE_DIR)).filter((name) => /^[0-9a-f]+$/.test(name))).toHaveLength(2 * SIZES.length);
    const issued = await app.deps.db.selectFrom('picture_mark_issues').select('viewer_id').where('post_id', '=', ppv.id).execute();
    expect(issued).toHaveLength(2);
    // six pictures drawn with sharp on a shared 2-core machine
  }, 90_000);

  it('the mark is the faint @username of the buyer: little change per pixel on average', async () => {
    const marked = await bytesOf(await get(as.fanA, ppv, 'web'));
    const [a, b] = await Promise.all([sharp(ppv.bytes.web).greyscale().raw().toBuffer(), sharp(marked).greyscale().raw().toBuffer()]);
    let sum = 0;
    for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
    const mean = sum / a.length;
    expect(mean).toBeGreaterThan(1);
    expect(mean).toBeLessThan(12);
  });

  it('the owner, the blurred preview and free pictures stay as stored; a non-buyer is refused as before', async () => {
    for (const variant of SIZES) {
      const owner = await get(as.owner, ppv, variant);
      if (storage === 's3') expect(owner.status).toBe(302);
      else expect(await bytesOf(owner)).toEqual(ppv.bytes[variant]);
      const freeCopy = await get(as.fanA, free, variant);
      if (storage === 's3') expect(freeCopy.status).toBe(302);
      else expect(await bytesOf(freeCopy)).toEqual(free.bytes[variant]);
      const refused = await get(as.stranger, ppv, variant);
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.code).toBe('PREMIUM_CONTENT');
    }
    const preview = await get(as.fanA, ppv, 'preview');
    if (storage === 's3') expect(preview.status).toBe(302);
    else expect(await bytesOf(preview)).toEqual(fixtureBytes(ppv.id, 'preview'));
  });

  it('turning the setting off again serves the stored picture to buyers at once', async () => {
    await as.owner.trpc.mediaSettings.save.mutate({ watermarkEnabled: true, watermarkText: null, watermarkPosition: 'center', markPaidPictures: false });
    const a = await get(as.fanA, ppv, 'web');
    if (storage === 's3') expect(a.status).toBe(302);
    else expect(await bytesOf(a)).toEqual(ppv.bytes.web);
  });
});
