import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUnlock, makeUser, type MadeUser } from '../../tests/helpers/factories';
import { makePicturePost, setMarkPaidPictures } from '../../tests/helpers/picture-posts';
import { startTestServer, type TestClient, type TestServer } from '../../tests/helpers/test-server';
import { clientAs } from '../../tests/helpers/trpc';
import { tracePicture } from './picture-trace';

/**
 * Tracing a leaked picture (issue 49 items 4 and 5, docs/media.md): a buyer's marked copy,
 * re-encoded, scaled down and cropped as a leak site would, names that buyer and nobody else.
 */
let app: TestServer;
let dir: string;
let creator: MadeUser;
let ppv: Awaited<ReturnType<typeof makePicturePost>>;
let buyers: Array<{ user: MadeUser; client: TestClient }>;

const mediaIdOf = async (postId: string, variant: string) =>
  (await app.deps.db.selectFrom('media_files').select('id').where('post_id', '=', postId).where('variant', '=', variant as 'web').executeTakeFirstOrThrow()).id;

/** What a leak site does to a picture: scaled to 70%, cropped by 3% on every side, saved as JPEG at quality 60. */
async function leakOf(picture: Buffer, name: string): Promise<string> {
  const { width, height } = await sharp(picture).metadata();
  const w = Math.round(width! * 0.7);
  const h = Math.round(height! * 0.7);
  const scaled = await sharp(picture).resize(w, h).png().toBuffer();
  const cx = Math.round(w * 0.03);
  const cy = Math.round(h * 0.03);
  const leak = await sharp(scaled).extract({ left: cx, top: cy, width: w - 2 * cx, height: h - 2 * cy }).jpeg({ quality: 60 }).toBuffer();
  const file = path.join(dir, name);
  await writeFile(file, leak);
  return file;
}

beforeAll(async () => {
  app = await startTestServer({ workerQueues: [] });
  dir = await mkdtemp(path.join(tmpdir(), 'picture-trace-'));
  const { db, storage } = app.deps;
  creator = await makeUser(db, { isCreator: true });
  await setMarkPaidPictures(db, creator.id, true);
  ppv = await makePicturePost(db, storage, { creatorId: creator.id, unlock: { priceCents: 2000, mode: 'everyone' } });
  buyers = [];
  for (let i = 0; i < 6; i++) {
    const user = await makeUser(db);
    await makeUnlock(db, { fanId: user.id, postId: ppv.id });
    buyers.push({ user, client: await clientAs(app, user.id) });
  }
  // every buyer looks at the picture in the feed's size: each is served a marked copy
  for (const buyer of buyers) expect((await buyer.client.fetch(`/media/${ppv.id}/web`)).status).toBe(200);
});
afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('tracePicture', () => {
  it("names the buyer whose copy leaked (JPEG 60, 70%, cropped 3%), and no other of six buyers", async () => {
    const leaker = buyers[3]!;
    const copy = Buffer.from(await (await leaker.client.fetch(`/media/${ppv.id}/web`)).arrayBuffer());
    const leakPath = await leakOf(copy, 'leak.jpg');
    const verdict = await tracePicture({ db: app.deps.db, storage: app.deps.storage, postId: ppv.id, mediaId: await mediaIdOf(ppv.id, 'web'), leakPath });
    expect(verdict.kind).toBe('identified');
    if (verdict.kind !== 'identified') return;
    expect(verdict.userId).toBe(leaker.user.id);
    expect(verdict.confidence).toBeGreaterThan(0.5);
    expect(verdict.evidence).toMatch(/6 buyer\(s\) compared/);
  }, 120_000);

  it('answers unknown for the unmarked original, leaked the same way', async () => {
    const leakPath = await leakOf(ppv.bytes.original, 'original-leak.jpg');
    const verdict = await tracePicture({ db: app.deps.db, storage: app.deps.storage, postId: ppv.id, mediaId: await mediaIdOf(ppv.id, 'original'), leakPath });
    expect(verdict.kind).toBe('unknown');
  }, 120_000);

  it('answers unknown for a file that is not a picture, and for another picture', async () => {
    const text = path.join(dir, 'not-a-picture.jpg');
    await writeFile(text, 'hello, I am not a JPEG at all');
    const mediaId = await mediaIdOf(ppv.id, 'original');
    const args = { db: app.deps.db, storage: app.deps.storage, postId: ppv.id, mediaId };
    expect(await tracePicture({ ...args, leakPath: text })).toEqual({ kind: 'unknown', reason: expect.stringMatching(/not a picture/) });
    const other = path.join(dir, 'other.jpg');
    await writeFile(other, await sharp({ create: { width: 800, height: 600, channels: 3, background: '#335577', noise: { type: 'gaussian', mean: 100, sigma: 50 } } }).jpeg().toBuffer());
    expect((await tracePicture({ ...args, leakPath: other })).kind).toBe('unknown');
  }, 120_000);

  it('answers unmarked for a free post and for a paid one served while the setting was off', async () => {
    const { db, storage } = app.deps;
    const free = await makePicturePost(db, storage, { creatorId: creator.id });
    for (const buyer of buyers.slice(0, 2)) await buyer.client.fetch(`/media/${free.id}/web`);
    const freeLeak = await leakOf(free.bytes.web, 'free-leak.jpg');
    expect(await tracePicture({ db, storage, postId: free.id, mediaId: await mediaIdOf(free.id, 'web'), leakPath: freeLeak })).toEqual({ kind: 'unmarked' });

    const otherCreator = await makeUser(db, { isCreator: true });
    const unmarked = await makePicturePost(db, storage, { creatorId: otherCreator.id, unlock: { priceCents: 2000, mode: 'everyone' } });
    await makeUnlock(db, { fanId: buyers[0]!.user.id, postId: unmarked.id });
    const copy = Buffer.from(await (await buyers[0]!.client.fetch(`/media/${unmarked.id}/web`)).arrayBuffer());
    expect(copy).toEqual(unmarked.bytes.web);
    const leakPath = await leakOf(copy, 'unmarked-leak.jpg');
    expect(await tracePicture({ db, storage, postId: unmarked.id, mediaId: await mediaIdOf(unmarked.id, 'web'), leakPath })).toEqual({ kind: 'unmarked' });
  });

  it('refuses a media id of another post', async () => {
    const other = await makePicturePost(app.deps.db, app.deps.storage, { creatorId: creator.id });
    const verdict = await tracePicture({ db: app.deps.db, storage: app.deps.storage, postId: ppv.id, mediaId: await mediaIdOf(other.id, 'web'), leakPath: path.join(dir, 'leak.jpg') });
    expect(verdict).toEqual({ kind: 'unknown', reason: 'This picture is not a file of this post.' });
  });
});
