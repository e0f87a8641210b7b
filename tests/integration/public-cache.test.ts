import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePost, makeSessionCookie, makeSubscription, makeUser, type MadeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';

/**
 * Anonymous answers of public queries (server/http/public-cache.ts) on two server copies (the
 * cache is on in every test server, as in production): shared-cacheable headers and ETags for
 * visitors, `private, no-store` for a session, an unchanged answer served from memory, and any
 * write, the app's or a row written behind its back, in both copies' next answers (the data
 * version in PostgreSQL), so a CDN's copy is the only one left, for at most s-maxage + stale (40 s).
 */
let one: TestServer;
let two: TestServer;
let creator: MadeUser;

beforeAll(async () => {
  one = await startTestServer({ workerQueues: [] });
  two = await startTestServer({ shareWith: one });
  creator = await makeUser(one.deps.db, { isCreator: true });
});
afterAll(async () => {
  await two?.close();
  await one?.close();
});

const query = (path: string, input: unknown) => `/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
const FEED = query('posts.feed', { limit: 5, cursor: null });
const visitorGet = (server: TestServer, url: string, headers: Record<string, string> = {}) => fetch(`${server.url}${url}`, { headers });
const feedIds = async (server: TestServer) => {
  const body = (await (await visitorGet(server, FEED)).json()) as { result: { data: { json: { items: { id: string }[] } } } };
  return body.result.data.json.items.map((p) => p.id);
};
/** Polls for 2 s at most: far less than the 5 s a copy keeps an answer on its own. */
const soon = { timeout: 2_000, interval: 50 };
const postQueries = (server: TestServer) => server.queries.list().filter((q) => q.includes('from "posts"'));

describe('anonymous answers a shared cache can serve', () => {
  it('answers a visitor with public caching and an ETag (304 on a match), a session with private, no-store', async () => {
    const post = await makePost(one.deps.db, one.deps.storage, { creatorId: creator.id, kind: null, text: 'public words' });
    for (const url of [FEED, query('posts.byId', { id: post.id }), query('creators.featured', undefined), query('profiles.posts', { username: creator.username, limit: 5 })]) {
      const res = await visitorGet(one, url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, s-maxage=10, stale-while-revalidate=30');
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await visitorGet(one, url, { 'if-none-match': etag! });
      expect(again.status).toBe(304);
      // the other copy makes the same tag from the same answer
      expect((await visitorGet(two, url, { 'if-none-match': etag! })).status).toBe(304);
    }
    const fan = await clientAs(one, (await makeUser(one.deps.db)).id);
    const signedIn = await fan.fetch(FEED);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('cache-control')).toBe('private, no-store');
    expect(signedIn.headers.get('etag')).toBeNull();
    // a query that is not public is never made cacheable
    const other = await visitorGet(one, query('settings.privacy', undefined));
    expect(other.headers.get('cache-control') ?? '').not.toContain('public');
    expect(other.headers.get('etag')).toBeNull();
  });

  it('answers an unchanged list from memory, and a row written behind the app’s back is in both copies’ next answers', async () => {
    await makePost(one.deps.db, one.deps.storage, { creatorId: creator.id, kind: null, text: 'first' });
    const before = await feedIds(one);
    one.queries.reset();
    expect(await feedIds(one)).toEqual(before);
    expect(postQueries(one)).toEqual([]);

    // a factory's insert, as a script or an operator's SQL would write it: no event, no message
    const post = await makePost(one.deps.db, one.deps.storage, { creatorId: creator.id, kind: null, text: 'behind its back' });
    expect(await feedIds(one)).toContain(post.id);
    expect(await feedIds(two)).toContain(post.id);
    expect(postQueries(one).length).toBeGreaterThan(0);
  });

  it('drops a deleted post from both copies’ anonymous answers at once', async () => {
    const post = await makePost(one.deps.db, one.deps.storage, { creatorId: creator.id, kind: null, text: 'to be deleted' });
    expect(await feedIds(one)).toContain(post.id);
    expect(await feedIds(two)).toContain(post.id);
    const byId = query('posts.byId', { id: post.id });
    expect((await visitorGet(two, byId)).status).toBe(200);

    const owner = await clientAs(one, creator.id);
    await owner.trpc.posts.delete.mutate({ postId: post.id });
    await expect.poll(() => feedIds(two), soon).not.toContain(post.id);
    await expect.poll(() => feedIds(one), soon).not.toContain(post.id);
    await expect.poll(async () => (await visitorGet(two, byId)).status, soon).toBe(404);
  });

  it('drops a privatised creator’s posts from both copies’ anonymous answers at once', async () => {
    const other = await makeUser(one.deps.db, { isCreator: true });
    const post = await makePost(one.deps.db, one.deps.storage, { creatorId: other.id, kind: null, text: 'soon private' });
    const byId = query('posts.byId', { id: post.id });
    expect(await feedIds(two)).toContain(post.id);
    expect((await visitorGet(two, byId)).status).toBe(200);

    const owner = await clientAs(one, other.id);
    await owner.trpc.settings.savePrivacy.mutate({ profileVisibility: 'private', showOnlineStatus: true, allowFriendRequests: true });
    await expect.poll(() => feedIds(two), soon).not.toContain(post.id);
    await expect.poll(async () => (await visitorGet(two, byId)).status, soon).not.toBe(200);
  });
});

/**
 * Issue 46 item 2: "anonymous" is what the session resolution says, not a pattern of the cookie
 * header. The cookie parser trims names, so `session =<token>` and `session\t=<token>` sign a
 * request in, and of two cookies named session the first counts; a pattern that missed them kept
 * the signed-in answer (a premium post whole, a private creator's list) and served it to every
 * visitor, marked `public` for any CDN. Each spelling is asked first with the session, then by a
 * visitor with no cookie at all, on the same copy: the visitor must get a visitor's answer, and
 * the signed-in one must be `private`.
 */
describe('only anonymous requests share an answer', () => {
  const PUBLIC = 'public, s-maxage=10, stale-while-revalidate=30';
  const dataOf = async (res: Response) => ((await res.json()) as { result?: { data: { json: unknown } } }).result?.data.json;
  const spellings: [string, (token: string) => string][] = [
    ['session =<token>', (token) => `session =${token}`],
    ['session<TAB>=<token>', (token) => `session\t=${token}`],
    ['two cookies named session', (token) => `theme=dark; session =${token}; session =not-a-session`],
  ];

  for (const [name, cookieOf] of spellings) {
    it(`${name}: the signed-in answer is private and never served to a visitor`, async () => {
      const { db, storage } = one.deps;
      // a premium post its subscriber sees whole
      const premium = await makePost(db, storage, { creatorId: creator.id, isPremium: true, kind: 'image', title: 'Whole for subscribers' });
      const fan = await makeUser(db);
      await makeSubscription(db, { subscriberId: fan.id, creatorId: creator.id });
      const byId = query('posts.byId', { id: premium.id });
      const signedIn = await visitorGet(one, byId, { cookie: cookieOf((await makeSessionCookie(db, fan.id)).token) });
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get('cache-control')).toBe('private, no-store');
      expect(signedIn.headers.get('etag')).toBeNull();
      // the cookie was read as the fan's session: the post is whole
      const whole = (await dataOf(signedIn)) as { viewer: { canViewMedia: boolean }; media: { url: string | null } };
      expect(whole.viewer.canViewMedia).toBe(true);
      expect(whole.media.url).toBe(`/media/${premium.id}/web`);

      const visitor = await visitorGet(one, byId);
      expect(visitor.headers.get('cache-control')).toBe(PUBLIC);
      const seen = (await dataOf(visitor)) as { viewer: { canViewMedia: boolean } };
      expect(seen.viewer.canViewMedia).toBe(false);
      expect(JSON.stringify(seen)).not.toContain(`/media/${premium.id}/web`);

      // a private creator's list, asked by its owner
      const secret = await makeUser(db, { isCreator: true, visibility: 'private' });
      await makePost(db, storage, { creatorId: secret.id, kind: null, text: 'for my eyes only' });
      const list = query('profiles.posts', { username: secret.username, limit: 5 });
      const own = await visitorGet(one, list, { cookie: cookieOf((await makeSessionCookie(db, secret.id)).token) });
      expect(own.status).toBe(200);
      expect(own.headers.get('cache-control')).toBe('private, no-store');
      expect(JSON.stringify(await dataOf(own))).toContain('for my eyes only');
      const theirs = await visitorGet(one, list);
      expect(theirs.status).not.toBe(200);
      expect(await theirs.text()).not.toContain('for my eyes only');
    });
  }

  it('a stale cookie (an expired session, a token that never was) is answered private, its cookie cleared, even with a visitor’s answer kept', async () => {
    const { db, storage } = one.deps;
    const post = await makePost(db, storage, { creatorId: creator.id, kind: null, text: 'seen by all' });
    const byId = query('posts.byId', { id: post.id });
    const gone = await makeUser(db);
    const expired = await makeSessionCookie(db, gone.id);
    await db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', expired.sessionId).execute();
    // a visitor's answer is kept in this copy's memory (after the writes above, which change the data version)
    expect((await visitorGet(one, byId)).headers.get('cache-control')).toBe(PUBLIC);

    for (const cookie of [`session =${expired.token}`, 'session=never-a-session', `session\t=${expired.token}-again`]) {
      const res = await visitorGet(one, byId, { cookie });
      expect(res.status, cookie).toBe(200);
      expect(res.headers.get('cache-control'), cookie).toBe('private, no-store');
      expect(res.headers.get('etag'), cookie).toBeNull();
      expect(res.headers.get('set-cookie'), cookie).toMatch(/^session=;/);
    }
    // and the next visitor gets the visitor's answer, with no cookie of anyone's
    const after = await visitorGet(one, byId);
    expect(after.headers.get('cache-control')).toBe(PUBLIC);
    expect(after.headers.get('set-cookie')).toBeNull();
  });
});
