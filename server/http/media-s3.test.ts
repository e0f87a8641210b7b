import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedCacheBoundS } from '../../tests/helpers/cache-control';
import { fixtureBytes, makePost, makeSubscription, makeUser, type MadePost, type MadeUser } from '../../tests/helpers/factories';
import { startTestServer, type TestClient, type TestServer } from '../../tests/helpers/test-server';
import { clientAs } from '../../tests/helpers/trpc';

/**
 * The media route with STORAGE_DRIVER=s3 against a real S3 server (s3rver): the same access check
 * as with disk (media.test.ts), then a redirect to a presigned URL of the object; the bytes,
 * ranges and download names come from the store. Signed URLs here live 2 s, so the test can see
 * an old URL stop working after a lapse.
 */
let app: TestServer;
let alice: MadeUser;
let premiumVideo: MadePost;
let premiumImage: MadePost;
let freeImage: MadePost;
let privateCreatorsFree: MadePost;
let as: { visitor: TestClient; fan: TestClient; subscriber: TestClient };
const TTL_S = 2;

beforeAll(async () => {
  app = await startTestServer({ storage: 's3', env: { MEDIA_SIGNED_URL_TTL_S: String(TTL_S) } });
  const { db, storage } = app.deps;
  alice = await makeUser(db, { isCreator: true });
  const privateCreator = await makeUser(db, { isCreator: true, visibility: 'private' });
  premiumVideo = await makePost(db, storage, { creatorId: alice.id, isPremium: true, kind: 'video', title: 'Behind the scenes' });
  premiumImage = await makePost(db, storage, { creatorId: alice.id, isPremium: true, kind: 'image', title: 'My Sunset Photo!' });
  freeImage = await makePost(db, storage, { creatorId: alice.id, kind: 'image' });
  privateCreatorsFree = await makePost(db, storage, { creatorId: privateCreator.id, kind: 'image' });
  const [fan, subscriber] = await Promise.all([makeUser(db), makeUser(db)]);
  await makeSubscription(db, { subscriberId: subscriber.id, creatorId: alice.id });
  await makeSubscription(db, { subscriberId: fan.id, creatorId: privateCreator.id });
  as = { visitor: app.client(), fan: await clientAs(app, fan.id), subscriber: await clientAs(app, subscriber.id) };
});
afterAll(async () => {
  await app?.close();
});

const url = (p: MadePost, variant: string, query = '') => `/media/${p.id}/${variant}${query}`;
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const manual = { redirect: 'manual' } as const;

describe('media route with S3 storage', () => {
  it('keeps the access check: refusals are answered here, never redirected', async () => {
    for (const variant of ['original', 'web', 'thumb']) {
      const res = await as.visitor.fetch(url(premiumImage, variant), manual);
      expect(res.status).toBe(403);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await as.fan.fetch(url(premiumVideo, 'original'), manual)).status).toBe(403);
    expect((await as.visitor.fetch(url(privateCreatorsFree, 'web'), manual)).status).toBe(404);
  });

  it('redirects an entitled viewer to a short-lived URL of the object that no cache may keep', async () => {
    const res = await as.subscriber.fetch(url(premiumVideo, 'original'), manual);
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe(new URL(app.deps.config.S3_ENDPOINT!).origin);
    expect(location.searchParams.get('X-Amz-Expires')).toBe(String(TTL_S));
    // signed now (not as of a shared window's start), so it lives TTL_S from this request
    const signedAt = location.searchParams.get('X-Amz-Date')!.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z');
    expect(Math.abs(Date.parse(signedAt) - Date.now())).toBeLessThan(5_000);

    const object = await fetch(location);
    expect(object.status).toBe(200);
    expect(object.headers.get('content-type')).toBe('video/mp4');
    expect(object.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(await bytes(object)).toEqual(fixtureBytes(premiumVideo.id, 'original'));
  });

  it('serves ranges (video seeking) and downloads from the store, through the redirect', async () => {
    const whole = fixtureBytes(premiumVideo.id, 'original');
    const part = await as.subscriber.fetch(url(premiumVideo, 'original'), { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${whole.length}`);
    expect(await bytes(part)).toEqual(whole.subarray(100, 200));

    const download = await as.subscriber.fetch(url(premiumImage, 'original', '?download=1'));
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="my-sunset-photo.jpg"');
    expect(await bytes(download)).toEqual(fixtureBytes(premiumImage.id, 'original'));
  });

  it('gives free media of public creators one cacheable URL per window, living MEDIA_SIGNED_URL_TTL_S', async () => {
    const signedAt = (res: Response) => new URL(res.headers.get('location')!).searchParams.get('X-Amz-Date');
    // the window is half the lifetime (1 s here): two requests in one window get one URL
    let first: Response, second: Response;
    let tries = 0;
    do {
      first = await as.visitor.fetch(url(freeImage, 'web'), manual);
      second = await as.subscriber.fetch(url(freeImage, 'web'), manual);
    } while (signedAt(first) !== signedAt(second) && ++tries < 5);
    expect(first.status).toBe(302);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    // a visitor's redirect is shared, a quarter of the lifetime (0 s here); one asked with a session is not
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, proxy-revalidate');
    expect(second.headers.get('cache-control')).toBe('private, max-age=0');
    expect(new URL(first.headers.get('location')!).searchParams.get('X-Amz-Expires')).toBe(String(TTL_S));
    const object = await fetch(first.headers.get('location')!);
    expect(object.headers.get('cache-control')).toBe('public, max-age=1, proxy-revalidate');
    expect(await bytes(object)).toEqual(fixtureBytes(freeImage.id, 'web'));
  });

  it('a free post made premium, private or deleted: its redirect and the URL it named stop serving a visitor within the URL’s lifetime', async () => {
    const { db, storage } = app.deps;
    const creator = await makeUser(db, { isCreator: true });
    const goingPrivate = await makeUser(db, { isCreator: true });
    const posts = {
      premium: await makePost(db, storage, { creatorId: creator.id, kind: 'image', title: 'Free, then premium' }),
      private: await makePost(db, storage, { creatorId: goingPrivate.id, kind: 'image', title: 'Free, then private' }),
      deleted: await makePost(db, storage, { creatorId: creator.id, kind: 'image', title: 'Free, then gone' }),
    };
    const served: Record<string, { url: string; location: string }> = {};
    for (const [change, post] of Object.entries(posts)) {
      // the URL the post's answer gives a visitor, as a visitor follows it
      const mediaUrl = (await as.visitor.trpc.posts.byId.query({ id: post.id })).media!.url!;
      const redirect = await as.visitor.fetch(mediaUrl, manual);
      expect(redirect.status, change).toBe(302);
      expect.soft(sharedCacheBoundS(redirect.headers.get('cache-control')), change).toBeLessThanOrEqual(TTL_S);
      const location = redirect.headers.get('location')!;
      expect.soft(Number(new URL(location).searchParams.get('X-Amz-Expires')), change).toBeLessThanOrEqual(TTL_S);
      const object = await fetch(location);
      expect(object.status, change).toBe(200);
      expect.soft(sharedCacheBoundS(object.headers.get('cache-control')), change).toBeLessThanOrEqual(TTL_S);
      expect(await bytes(object), change).toEqual(fixtureBytes(post.id, 'web'));
      served[change] = { url: mediaUrl, location };
    }

    const owner = await clientAs(app, creator.id);
    await owner.trpc.posts.edit.mutate({ postId: posts.premium.id, title: 'Free, then premium', text: '', hashtags: '', isPremium: true, unlock: null });
    await owner.trpc.posts.delete.mutate({ postId: posts.deleted.id });
    await (await clientAs(app, goingPrivate.id)).trpc.settings.savePrivacy.mutate({ profileVisibility: 'private', showOnlineStatus: true, allowFriendRequests: true });

    for (const [change, { url: mediaUrl }] of Object.entries(served)) {
      const res = await app.client().fetch(mediaUrl, manual);
      expect([403, 404], change).toContain(res.status);
      expect(res.headers.get('location'), change).toBeNull();
    }
    // the URLs already handed out (the objects of a post made premium or private keep their keys)
    await sleep(TTL_S * 1000 + 1100);
    for (const [change, { location }] of Object.entries(served)) {
      const res = await fetch(location);
      expect([403, 404], change).toContain(res.status);
    }
  });

  it('stops a lapsed subscriber at once and their last URL within its lifetime', async () => {
    const { db } = app.deps;
    const fan = await makeUser(db);
    const { subscriptionId } = await makeSubscription(db, { subscriberId: fan.id, creatorId: alice.id });
    const client = await clientAs(app, fan.id);
    const res = await client.fetch(url(premiumImage, 'web'), manual);
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    await db.updateTable('subscriptions').set({ current_period_end: new Date(Date.now() - 1000) }).where('id', '=', subscriptionId).execute();
    expect((await client.fetch(url(premiumImage, 'web'), manual)).status).toBe(403);
    await sleep(TTL_S * 1000 + 1100);
    expect((await fetch(location)).status).toBe(403);
  });
});
