import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ladderKey, type LadderRendition } from '../../../common/ladder';
import { makePost, makeSubscription, makeUser, type MadePost } from '../../../tests/helpers/factories';
import { startTestServer, type TestClient, type TestServer } from '../../../tests/helpers/test-server';
import { clientAs } from '../../../tests/helpers/trpc';

/**
 * A video's HLS playlists with STORAGE_DRIVER=s3 against a real S3 server (s3rver): the same
 * access rule as with disk (tests/integration/hls-ladder.test.ts), then each file listed as a URL
 * presigned per file for HLS_URL_TTL_S (10 s here), fetched from the store, refused by it after.
 * The ladder's row and objects are written here as the worker writes them (no ffmpeg).
 */
const TTL_S = 10;
let app: TestServer;
let post: MadePost;
let subscriber: TestClient;
let stranger: TestClient;

beforeAll(async () => {
  app = await startTestServer({ storage: 's3', env: { HLS_URL_TTL_S: String(TTL_S) } });
  const { db, storage } = app.deps;
  const creator = await makeUser(db, { isCreator: true });
  post = await makePost(db, storage, { creatorId: creator.id, isPremium: true, kind: 'video' });
  const file = (name: string) => ({ file: name, key: ladderKey(post.id, 0, name) });
  const rendition: LadderRendition = {
    name: '360', width: 640, height: 360, bandwidth: 900_000, codecs: 'avc1.64001e,mp4a.40.2', targetDuration: 2,
    init: file('360/init_0.mp4'),
    segments: [{ ...file('360/seg_0000.m4s'), duration: 2 }, { ...file('360/seg_0001.m4s'), duration: 1.5 }],
  };
  for (const f of [rendition.init, ...rendition.segments]) await storage.put(f.key, Buffer.from(`bytes of ${f.file}`), 'application/octet-stream');
  await db
    .insertInto('video_ladders')
    .values({ post_id: post.id, position: 0, renditions: JSON.stringify([rendition]), thumbnails: null, storage_keys: [rendition.init.key, ...rendition.segments.map((s) => s.key)] })
    .execute();
  const [fan, other] = await Promise.all([makeUser(db), makeUser(db)]);
  await makeSubscription(db, { subscriberId: fan.id, creatorId: creator.id });
  subscriber = await clientAs(app, fan.id);
  stranger = await clientAs(app, other.id);
});
afterAll(async () => {
  await app?.close();
});

describe('HLS with S3 storage', () => {
  it('lists presigned URLs of the store to an entitled viewer only; they stop working after HLS_URL_TTL_S', async () => {
    const playlist = `/hls/${post.id}/0/360.m3u8`;
    expect((await stranger.fetch(playlist)).status).toBe(403);
    expect((await app.client().fetch(`/hls/${post.id}/0/master.m3u8`)).status).toBe(403);

    const res = await subscriber.fetch(playlist);
    expect(res.status).toBe(200);
    const text = await res.text();
    const uris = [/#EXT-X-MAP:URI="([^"]+)"/.exec(text)![1]!, ...text.split('\n').filter((l) => l !== '' && !l.startsWith('#'))];
    expect(uris).toHaveLength(3);
    const storeOrigin = new URL(app.deps.config.S3_ENDPOINT!).origin;
    for (const [i, uri] of uris.entries()) {
      expect(new URL(uri).origin).toBe(storeOrigin);
      const object = await fetch(uri);
      expect(object.status).toBe(200);
      expect(await object.text()).toBe(`bytes of ${['360/init_0.mp4', '360/seg_0000.m4s', '360/seg_0001.m4s'][i]}`);
    }
    await sleep((TTL_S + 1.5) * 1000);
    expect((await fetch(uris[1]!)).status).toBe(403);
  }, 30_000);
});
