import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePost, makeUser, type MadeUser } from '../helpers/factories';
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
