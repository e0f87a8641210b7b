import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { makePost, makeSessionCookie, makeUser } from '../helpers/factories';
import { useTestServer } from '../helpers/test-server';

// What the app's tRPC handler (server/trpc/express-handler.ts) answers over HTTP, as the SPA's
// httpBatchLink and a browser see it: tRPC resolves, the handler writes. Asked of the short path
// (FRAMEWORK_SHORTCUTS, the default) and of tRPC's own adapter, which an upgrade falls back to.

const input = (calls: unknown[]) => encodeURIComponent(JSON.stringify(Object.fromEntries(calls.map((c, i) => [i, { json: c }]))));

/** a raw GET, to read the bytes and headers as they left the server (fetch would undo the gzip) */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

for (const shortcuts of [true, false]) {
  describe(`tRPC over HTTP, framework shortcuts ${shortcuts ? 'on' : 'off'}`, () => {
    const app = useTestServer({ env: { FRAMEWORK_SHORTCUTS: String(shortcuts) } });

    it('answers a batch call by call, in order, with 207 when one of them is refused', async () => {
      const res = await fetch(`${app.url}/trpc/auth.me,messages.chatList?batch=1&input=${input([null, {}])}`);
      expect(res.status).toBe(207);
      const body = (await res.json()) as [{ result: { data: { json: null } } }, { error: { json: { data: { code: string; httpStatus: number } } } }];
      expect(body[0].result.data.json).toBeNull();
      expect(body[1].error.json.data).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401 });
    });

    it("keeps a signed-in answer out of every cache, and says an anonymous one depends on the cookie", async () => {
      const user = await makeUser(app.deps.db);
      const { cookie } = await makeSessionCookie(app.deps.db, user.id);
      const signedIn = await fetch(`${app.url}/trpc/auth.me`, { headers: { cookie } });
      expect(signedIn.status).toBe(200);
      expect(((await signedIn.json()) as { result: { data: { json: { id: string } } } }).result.data.json.id).toBe(user.id);
      expect(signedIn.headers.get('cache-control')).toBe('private, no-store');
      expect(signedIn.headers.get('vary')).toMatch(/Cookie/i);
      expect(signedIn.headers.get('x-content-type-options')).toBe('nosniff');
      const anonymous = await fetch(`${app.url}/trpc/auth.me`);
      expect(anonymous.headers.get('vary')).toMatch(/Cookie/i);
      expect(anonymous.headers.get('cache-control')).not.toBe('private, no-store');
    });

    it('gzips a page for a client that accepts it, and sends it plain to one that does not', async () => {
      const creator = await makeUser(app.deps.db, { isCreator: true });
      for (let i = 0; i < 12; i += 1) await makePost(app.deps.db, null, { creatorId: creator.id, text: `Post ${i} `.padEnd(200, 'of a creator with a lot to say ') });
      const url = `${app.url}/trpc/profiles.posts?input=${encodeURIComponent(JSON.stringify({ json: { username: creator.username, limit: 12 } }))}`;
      const zipped = await rawGet(url, { 'accept-encoding': 'gzip' });
      expect(zipped.status).toBe(200);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      const page = JSON.parse(gunzipSync(zipped.body).toString()) as { result: { data: { json: { items: unknown[] } } } };
      expect(page.result.data.json.items).toHaveLength(12);
      const plain = await rawGet(url, {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(plain.body.toString())).toEqual(page);
    });

    it("answers every GET query exactly as tRPC's resolveResponse does: data, errors, batches, status and headers", async () => {
      // A GET that asks for tRPC's answer format (trpc-accept) is handed to resolveResponse; any
      // other GET query is answered by get-queries.ts. Each URL is asked both ways.
      const fan = await makeUser(app.deps.db);
      const creator = await makeUser(app.deps.db, { isCreator: true });
      const post = await makePost(app.deps.db, null, { creatorId: creator.id, text: 'A post with a date in its answer' });
      const { cookie } = await makeSessionCookie(app.deps.db, fan.id);
      const one = (proc: string, value?: unknown) => `${app.url}/trpc/${proc}${value === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: value }))}`}`;
      const batch = (procs: string[], values: unknown[]) => `${app.url}/trpc/${procs.join(',')}?batch=1&input=${input(values)}`;
      const cases: [string, string, Record<string, string>][] = [
        ['a query with no input, anonymous', one('auth.me'), {}],
        ['a query with no input, signed in', one('auth.me'), { cookie }],
        ['a post with its dates', one('posts.byId', { id: post.id }), { cookie }],
        ['a profile page, anonymous', one('profiles.posts', { username: creator.username, limit: 12 }), {}],
        ['an unknown partner (404)', one('messages.thread', { username: 'nobody-here' }), { cookie }],
        ['a signed-in query anonymous (401, before the input is read)', one('messages.thread', { username: creator.username }), {}],
        ['an input the schema refuses (400)', one('posts.feed', { limit: 'many' }), { cookie }],
        ['a malformed id (404 by the id policy)', one('posts.byId', { id: 'not-a-uuid' }), { cookie }],
        ['a batch of answers and refusals (207)', batch(['auth.me', 'posts.byId', 'messages.thread'], [null, { id: post.id }, { username: 'nobody-here' }]), { cookie }],
        ['a batch all answered', batch(['auth.me', 'posts.byId'], [null, { id: post.id }]), { cookie }],
        ['a mutation over GET (405)', one('posts.like', { postId: post.id }), { cookie }],
        ['an unknown procedure', one('posts.nothing'), { cookie }],
        ['an input that is not JSON', `${app.url}/trpc/posts.byId?input=%7Bnot-json`, { cookie }],
      ];
      for (const [what, url, headers] of cases) {
        const [ours, trpcs] = await Promise.all([fetch(url, { headers }), fetch(url, { headers: { ...headers, 'trpc-accept': 'application/json' } })]);
        const read = async (r: Response) => ({
          status: r.status,
          body: (await r.json()) as unknown,
          headers: Object.fromEntries(['content-type', 'cache-control', 'vary', 'retry-after'].map((h) => [h, r.headers.get(h)])),
        });
        expect(await read(ours), what).toEqual(await read(trpcs));
      }
    });

    it('goes on answering after a client that left before its answer', async () => {
      const url = `${app.url}/trpc/creators.featured`;
      await Promise.all(Array.from({ length: 5 }, () => fetch(url, { signal: AbortSignal.timeout(1) }).catch(() => undefined)));
      const res = await fetch(url);
      expect(res.status).toBe(200);
    });
  });
}
