import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedCacheBoundS } from '../../../tests/helpers/cache-control';
import { fixtureBytes, makePost, makeSessionCookie, makeSubscription, makeUser, type MadePost, type MadeUser } from '../../../tests/helpers/factories';
import { startTestServer, type TestClient, type TestServer } from '../../../tests/helpers/test-server';
import { clientAs } from '../../../tests/helpers/trpc';
import { parseRange } from '../../http/serve-file';

let app: TestServer;
let alice: MadeUser;
let premiumImage: MadePost;
let premiumVideo: MadePost;
let freeImage: MadePost;
let draft: MadePost;
let privatePost: MadePost;
let as: { visitor: TestClient; fan: TestClient; subscriber: TestClient; lapsed: TestClient; canceled: TestClient; owner: TestClient; otherSubscriber: TestClient };

beforeAll(async () => {
  app = await startTestServer();
  const db = app.deps.db;
  const storage = app.deps.storage;
  alice = await makeUser(db, { isCreator: true });
  const privateCreator = await makeUser(db, { isCreator: true, visibility: 'private' });
  premiumImage = await makePost(db, storage, { creatorId: alice.id, isPremium: true, kind: 'image', title: 'My Sunset Photo!', medium: true });
  premiumVideo = await makePost(db, storage, { creatorId: alice.id, isPremium: true, kind: 'video', title: 'Behind the scenes' });
  freeImage = await makePost(db, storage, { creatorId: alice.id, kind: 'image', title: null });
  draft = await makePost(db, storage, { creatorId: alice.id, status: 'draft', kind: 'image' });
  privatePost = await makePost(db, storage, { creatorId: privateCreator.id, kind: 'image' });

  const [fan, subscriber, lapsed, canceled, otherSubscriber] = await Promise.all([1, 2, 3, 4, 5].map(() => makeUser(db)));
  await makeSubscription(db, { subscriberId: subscriber!.id, creatorId: alice.id });
  await makeSubscription(db, { subscriberId: lapsed!.id, creatorId: alice.id, periodEnd: new Date(Date.now() - 60_000) });
  await makeSubscription(db, { subscriberId: canceled!.id, creatorId: alice.id, status: 'canceled' });
  // subscribed to the private creator, not to alice
  await makeSubscription(db, { subscriberId: otherSubscriber!.id, creatorId: privateCreator.id });
  as = {
    visitor: app.client(),
    fan: await clientAs(app, fan!.id),
    subscriber: await clientAs(app, subscriber!.id),
    lapsed: await clientAs(app, lapsed!.id),
    canceled: await clientAs(app, canceled!.id),
    owner: await clientAs(app, alice.id),
    otherSubscriber: await clientAs(app, otherSubscriber!.id),
  };
});
afterAll(async () => {
  await app?.close();
});

const url = (p: MadePost, variant: string, query = '') => `/media/${p.id}/${variant}${query}`;
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('GET /media/:postId/:variant — premium gating', () => {
  it('answers 403 to every URL of a premium post but its preview, for anyone not entitled', async () => {
    const requests: [string, RequestInit?][] = [];
    for (const p of [premiumImage, premiumVideo]) {
      for (const variant of ['original', 'web', 'medium', 'thumb', 'poster']) {
        requests.push([url(p, variant)]);
        requests.push([url(p, variant), { headers: { range: 'bytes=0-99' } }]);
        requests.push([url(p, variant), { headers: { range: 'bytes=-10' } }]);
        requests.push([url(p, variant, '?download=1')]);
        requests.push([url(p, variant), { method: 'HEAD' }]);
      }
    }
    for (const who of ['visitor', 'fan', 'lapsed', 'canceled', 'otherSubscriber'] as const) {
      for (const [path, init] of requests) {
        const res = await as[who].fetch(path, init);
        expect(res.status, `${who} ${init?.method ?? 'GET'} ${path} ${JSON.stringify(init?.headers ?? {})}`).toBe(403);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('content-range')).toBeNull();
        if (init?.method !== 'HEAD') {
          expect(await res.json()).toEqual({
            error: {
              message: 'Premium Content - Subscribe to view this content.',
              title: 'Premium Content',
              description: 'Subscribe to view this content.',
              code: 'PREMIUM_CONTENT',
            },
          });
        }
      }
      // the blurred preview is for everyone who may see the post
      const preview = await as[who].fetch(url(premiumImage, 'preview'));
      expect(preview.status).toBe(200);
      expect(await bytes(preview)).toEqual(fixtureBytes(premiumImage.id, 'preview'));
    }
  });

  it('serves every variant to an active subscriber and to the owner', async () => {
    for (const who of ['subscriber', 'owner'] as const) {
      for (const [p, variants] of [
        [premiumImage, ['original', 'web', 'medium', 'thumb', 'preview']],
        [premiumVideo, ['original', 'poster', 'preview']],
      ] as const) {
        for (const variant of variants) {
          const res = await as[who].fetch(url(p, variant));
          expect(res.status, `${who} ${variant}`).toBe(200);
          expect(await bytes(res)).toEqual(fixtureBytes(p.id, variant));
        }
      }
    }
    // variants that were never made are 404 to those entitled
    expect((await as.subscriber.fetch(url(premiumVideo, 'thumb'))).status).toBe(404);
    expect((await as.subscriber.fetch(url(premiumVideo, 'web'))).status).toBe(404);
  });

  it('serves HTTP ranges to a subscriber (video seeking)', async () => {
    const whole = fixtureBytes(premiumVideo.id, 'original');
    const get = (range: string) => as.subscriber.fetch(url(premiumVideo, 'original'), { headers: { range } });

    const first = await get('bytes=0-99');
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe('bytes 0-99/1000');
    expect(first.headers.get('content-length')).toBe('100');
    expect(first.headers.get('content-type')).toBe('video/mp4');
    expect(await bytes(first)).toEqual(whole.subarray(0, 100));

    const open = await get('bytes=900-');
    expect(open.headers.get('content-range')).toBe('bytes 900-999/1000');
    expect(await bytes(open)).toEqual(whole.subarray(900));

    const suffix = await get('bytes=-100');
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('content-range')).toBe('bytes 900-999/1000');

    const clamped = await get('bytes=990-5000');
    expect(clamped.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(await bytes(clamped)).toEqual(whole.subarray(990));

    for (const bad of ['bytes=1000-', 'bytes=5000-6000', 'bytes=50-10', 'bytes=-0']) {
      const res = await get(bad);
      expect(res.status, bad).toBe(416);
      expect(res.headers.get('content-range')).toBe('bytes */1000');
    }
    // several ranges or another unit: the whole file
    for (const ignored of ['bytes=0-1,5-6', 'items=0-1', 'bytes=x-y']) {
      const res = await get(ignored);
      expect(res.status, ignored).toBe(200);
      expect(await bytes(res)).toEqual(whole);
    }
    // the owner seeks too
    const owner = await as.owner.fetch(url(premiumVideo, 'original'), { headers: { range: 'bytes=10-19' } });
    expect(owner.status).toBe(206);
    expect(await bytes(owner)).toEqual(whole.subarray(10, 20));
  });

  it('stops serving when the subscription lapses', async () => {
    const db = app.deps.db;
    const fan = await makeUser(db);
    const { subscriptionId } = await makeSubscription(db, { subscriberId: fan.id, creatorId: alice.id });
    const client = await clientAs(app, fan.id);
    expect((await client.fetch(url(premiumImage, 'web'))).status).toBe(200);
    await db.updateTable('subscriptions').set({ current_period_end: new Date(Date.now() - 1000) }).where('id', '=', subscriptionId).execute();
    expect((await client.fetch(url(premiumImage, 'web'))).status).toBe(403);
  });
});

describe('GET /media/:postId/:variant — visibility', () => {
  it('answers 404 for posts the viewer may not see, unknown posts and unknown variants', async () => {
    for (const who of ['visitor', 'fan', 'subscriber', 'otherSubscriber'] as const) {
      for (const path of [
        url(draft, 'original'),
        url(draft, 'web', '?download=1'),
        url(privatePost, 'original'),
        url(privatePost, 'thumb'),
        url(privatePost, 'medium'),
        // made before the medium size: it has none
        url(freeImage, 'medium'),
        '/media/00000000-0000-0000-0000-000000000000/original',
        '/media/not-a-uuid/original',
        url(freeImage, 'nonsense'),
        url(freeImage, 'preview'),
      ]) {
        const res = await as[who].fetch(path);
        expect(res.status, `${who} ${path}`).toBe(404);
      }
    }
    expect((await as.owner.fetch(url(draft, 'original'))).status).toBe(200);
  });

  it('never exposes storage by a static path', async () => {
    const key = freeImage.keys.original!;
    for (const path of [`/${key}`, `/storage/${key}`, `/data/storage/${key}`, `/media/${key}`, `/media/${freeImage.id}/../../${key}`, `/media/${freeImage.id}/original.jpg`]) {
      const res = await as.owner.fetch(path);
      expect(res.status, path).toBe(404);
    }
  });

  it('reads the session like tRPC does: a bad cookie is a visitor and gets cleared', async () => {
    const client = app.client();
    client.cookies().set('session', 'forged-token');
    const res = await client.fetch(url(premiumImage, 'web'));
    expect(res.status).toBe(403);
    expect(client.lastSetCookie().join(';')).toMatch(/session=;/);
    expect((await client.fetch(url(freeImage, 'web'))).status).toBe(200);
  });
});

describe('GET /media/:postId/:variant — headers', () => {
  it('sends type, length, ETag, nosniff and a private cache policy for premium media', async () => {
    const res = await as.subscriber.fetch(url(premiumImage, 'web'));
    expect(res.status).toBe(200);
    const file = await app.deps.db
      .selectFrom('media_files')
      .select('id')
      .where('post_id', '=', premiumImage.id)
      .where('variant', '=', 'web')
      .executeTakeFirstOrThrow();
    expect(res.headers.get('etag')).toBe(`"${file.id}-1000"`);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, max-age=600, no-transform');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="my-sunset-photo.jpg"');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('lets shared caches keep only free media of public creators', async () => {
    expect((await as.visitor.fetch(url(freeImage, 'web'))).headers.get('cache-control')).toBe('public, max-age=600, s-maxage=60, proxy-revalidate, no-transform');
    expect((await as.visitor.fetch(url(premiumImage, 'preview'))).headers.get('cache-control')).toMatch(/^private/);
    expect((await as.owner.fetch(url(draft, 'web'))).headers.get('cache-control')).toMatch(/^private/);
    const privateOwner = await app.deps.db.selectFrom('posts').select('creator_id').where('id', '=', privatePost.id).executeTakeFirstOrThrow();
    const asPrivateOwner = await clientAs(app, privateOwner.creator_id);
    expect((await asPrivateOwner.fetch(url(privatePost, 'web'))).headers.get('cache-control')).toMatch(/^private/);
  });

  it('answers 304 to a matching If-None-Match and 200 otherwise', async () => {
    const first = await as.subscriber.fetch(url(premiumVideo, 'poster'));
    const etag = first.headers.get('etag')!;
    const again = await as.subscriber.fetch(url(premiumVideo, 'poster'), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const weakInList = await as.subscriber.fetch(url(premiumVideo, 'poster'), { headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(weakInList.status).toBe(304);
    const stale = await as.subscriber.fetch(url(premiumVideo, 'poster'), { headers: { 'if-none-match': '"other"' } });
    expect(stale.status).toBe(200);
    // a 304 is no way around the paywall
    const fanTry = await as.fan.fetch(url(premiumVideo, 'poster'), { headers: { 'if-none-match': etag } });
    expect(fanTry.status).toBe(403);
    // If-Range with a stale validator: the whole file
    const ifRange = await as.subscriber.fetch(url(premiumVideo, 'original'), { headers: { range: 'bytes=0-9', 'if-range': '"old"' } });
    expect(ifRange.status).toBe(200);
  });

  it('sends the original as an attachment named from the title and the content type', async () => {
    const video = await as.subscriber.fetch(url(premiumVideo, 'original', '?download=1'));
    expect(video.status).toBe(200);
    expect(video.headers.get('content-disposition')).toBe('attachment; filename="behind-the-scenes.mp4"');
    const untitled = await as.visitor.fetch(url(freeImage, 'original', '?download=1'));
    // untitled: named as everywhere else, 'Post by <display name>' (the factory's 'User... Tester')
    expect(untitled.headers.get('content-disposition')).toBe(`attachment; filename="post-by-${alice.username}-tester.jpg"`);
    expect(await bytes(untitled)).toEqual(fixtureBytes(freeImage.id, 'original'));
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await as.subscriber.fetch(url(premiumVideo, 'original'), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1000');
    expect(await res.text()).toBe('');
  });

  it('answers 404 when the row points at a file storage lost', async () => {
    const lost = await makePost(app.deps.db, null, { creatorId: alice.id, kind: 'pdf' });
    expect((await as.visitor.fetch(url(lost, 'original'))).status).toBe(404);
  });
});

describe('parseRange', () => {
  it('reads the three forms and refuses what cannot be served', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-4', 10)).toEqual({ start: 0, end: 4 });
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=-', 10)).toBeNull();
    expect(parseRange('bytes=0-1, 3-4', 10)).toBeNull();
  });
});

/**
 * Issue 46 item 4: access that ends, ends in caches too. A free post's media may be kept by a
 * shared cache (a CDN in front of the app), so the headers must bound how long: 60 s, then the
 * cache must ask again, and the access check answers. Each change is checked on the URL the
 * post's own answer gave a visitor, fetched as a visitor, and as a cache revalidates it.
 */
describe('GET /media/:postId/:variant — access that ends, ends in caches', () => {
  const PROMISED_S = 60;

  it('a free post made premium, private or deleted: the old URL serves no visitor, and no shared cache was let keep it longer', async () => {
    const { db, storage } = app.deps;
    const creator = await makeUser(db, { isCreator: true });
    const goingPrivate = await makeUser(db, { isCreator: true });
    const posts = {
      premium: await makePost(db, storage, { creatorId: creator.id, kind: 'image', title: 'Free, then premium' }),
      private: await makePost(db, storage, { creatorId: goingPrivate.id, kind: 'image', title: 'Free, then private' }),
      deleted: await makePost(db, storage, { creatorId: creator.id, kind: 'image', title: 'Free, then gone' }),
    };
    const served: Record<string, { url: string; etag: string }> = {};
    for (const [change, post] of Object.entries(posts)) {
      const dto = await as.visitor.trpc.posts.byId.query({ id: post.id });
      const mediaUrl = dto.media!.url!;
      const res = await as.visitor.fetch(mediaUrl);
      expect(res.status, change).toBe(200);
      expect(await bytes(res), change).toEqual(fixtureBytes(post.id, 'web'));
      const cacheControl = res.headers.get('cache-control');
      expect(sharedCacheBoundS(cacheControl), `${change}: ${cacheControl}`).toBeLessThanOrEqual(PROMISED_S);
      expect(sharedCacheBoundS(cacheControl), `${change}: ${cacheControl}`).toBeGreaterThan(0);
      served[change] = { url: mediaUrl, etag: res.headers.get('etag')! };
    }

    const owner = await clientAs(app, creator.id);
    await owner.trpc.posts.edit.mutate({ postId: posts.premium.id, title: 'Free, then premium', text: '', hashtags: '', isPremium: true, unlock: null });
    await owner.trpc.posts.delete.mutate({ postId: posts.deleted.id });
    await (await clientAs(app, goingPrivate.id)).trpc.settings.savePrivacy.mutate({ profileVisibility: 'private', showOnlineStatus: true, allowFriendRequests: true });

    for (const [change, { url: mediaUrl, etag }] of Object.entries(served)) {
      // a visitor, and a cache asking again with the validator it kept: neither gets the bytes or a 304
      for (const headers of [{}, { 'if-none-match': etag }] as Record<string, string>[]) {
        const res = await app.client().fetch(mediaUrl, { headers });
        expect([403, 404], `${change} ${JSON.stringify(headers)}`).toContain(res.status);
        expect(res.headers.get('cache-control'), change).toBe('no-store');
        expect((await bytes(res)).includes(fixtureBytes(posts[change as keyof typeof posts].id, 'web').subarray(0, 64)), change).toBe(false);
      }
    }
  });

  it('free media answered to a request with a session cookie, or that sets one, is private: a shared cache never keeps a session', async () => {
    const { db } = app.deps;
    const fan = await makeUser(db);
    const renewing = await makeSessionCookie(db, fan.id);
    // a day left: this request renews it and sends the cookie again
    await db.updateTable('sessions').set({ expires_at: new Date(Date.now() + 24 * 3600_000) }).where('id', '=', renewing.sessionId).execute();
    const renewed = await app.client().fetch(url(freeImage, 'web'), { headers: { cookie: renewing.cookie } });
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get('set-cookie')).toContain(`session=${renewing.token};`);
    expect(renewed.headers.get('cache-control')).toBe('private, max-age=600, no-transform');

    for (const cookie of ['session=never-a-session', 'session =never-a-session']) {
      const cleared = await app.client().fetch(url(freeImage, 'web'), { headers: { cookie } });
      expect(cleared.status, cookie).toBe(200);
      expect(cleared.headers.get('set-cookie'), cookie).toMatch(/^session=;/);
      expect(cleared.headers.get('cache-control'), cookie).toBe('private, max-age=600, no-transform');
    }
    const signedIn = await as.fan.fetch(url(freeImage, 'web'));
    expect(signedIn.headers.get('cache-control')).toBe('private, max-age=600, no-transform');
    // a visitor's answer is the shared one, with no cookie
    const visitor = await app.client().fetch(url(freeImage, 'web'));
    expect(visitor.headers.get('set-cookie')).toBeNull();
    expect(sharedCacheBoundS(visitor.headers.get('cache-control'))).toBe(60);
  });
});
