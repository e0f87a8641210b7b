import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_DATA_ELEMENT_ID } from '../../common/first-data';
import { buildServerRenderer } from '../../scripts/build-web';
import { makePost, makeSessionCookie, makeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * Issue 48 item 1: a server-rendered page is one route file. The page renderer is built with the
 * app's route tree plus one route of a test's own (tests/fixtures/extra-route/entry-server.tsx:
 * `/fixture-post/$id`, whose loader ensures `posts.byId`, prefetches `comments.list` and says what
 * it found), and served by the unchanged server: the page comes back rendered with its data, its
 * head from that data, its query answers in the first data, 404 when the post is not the
 * viewer's to see, and the access rule of the request's own session.
 */
let app: TestServer;
let distDir: string;

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'route-first-data-'));
  await copyFile(path.resolve(import.meta.dirname, '../../index.html'), path.join(distDir, 'index.html'));
  await buildServerRenderer(distDir, 'error', 'tests/fixtures/extra-route/entry-server.tsx');
  app = await startTestServer({ workerQueues: [], env: { SERVE_SPA: 'true', DIST_DIR: distDir } });
}, 180_000);
afterAll(async () => {
  await app?.close();
  await rm(distDir, { recursive: true, force: true });
});

async function page(pathname: string, cookie?: string) {
  const res = await fetch(`${app.url}${pathname}`, { headers: cookie ? { cookie } : {} });
  const html = await res.text();
  const root = html.slice(html.indexOf('<div id="root">'), html.indexOf(`<script type="application/json" id="${FIRST_DATA_ELEMENT_ID}">`));
  const script = new RegExp(`<script type="application/json" id="${FIRST_DATA_ELEMENT_ID}">(.*?)</script>`, 's').exec(html)?.[1];
  const data = new Map<string, unknown>();
  if (script) {
    const state = superjson.deserialize<{ queries: { queryKey: [string[], unknown]; state: { data: unknown } }[] }>(JSON.parse(script));
    for (const q of state.queries) data.set(q.queryKey[0].join('.'), q.state.data);
  }
  return { status: res.status, html, root, data };
}

describe('a route added in a fixture, served by the unchanged server', () => {
  it("is rendered with its loader's data, and its head and first data come from that data", async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Lighthouse at dusk' });

    const visitor = await page(`/fixture-post/${post.id}`);
    expect(visitor.status).toBe(200);
    expect(visitor.root).toMatch(/<h1>Fixture: (<!-- -->)?Lighthouse at dusk<\/h1>/);
    // the unawaited prefetch was waited for too
    expect(visitor.root).toContain('Comments loaded');
    expect(visitor.html).toContain('<title>Lighthouse at dusk · CreatorHub</title>');
    expect(visitor.html).toContain(`<meta property="og:url" content="${app.url}/post/${post.id}" />`);
    expect(visitor.html).toMatch(new RegExp(`<link rel="preload" as="image" fetchpriority="high" href="/media/${post.id}/web"`));
    expect(visitor.data.get('posts.byId')).toMatchObject({ id: post.id, title: 'Lighthouse at dusk' });
    expect(visitor.data.get('comments.list')).toEqual([]);
  });

  it("answers with the request's own session and access rule: a premium picture is whole only for its owner", async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const premium = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Backstage reel', isPremium: true });
    const { cookie } = await makeSessionCookie(app.deps.db, creator.id);

    const visitor = await page(`/fixture-post/${premium.id}`);
    expect(visitor.root).toContain(`/media/${premium.id}/preview`);
    expect(visitor.html).not.toContain(`/media/${premium.id}/web`);

    const owner = await page(`/fixture-post/${premium.id}`, cookie);
    expect(owner.status).toBe(200);
    expect(owner.root).toContain(`src="/media/${premium.id}/web"`);
    expect(owner.data.get('posts.byId')).toMatchObject({ viewer: { isOwner: true, canViewMedia: true } });
    // a link preview is never made from what one viewer may see
    expect(owner.html).not.toContain('og:title');
  });

  it('is a 404 with nothing of the post when its loader does not find it', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const draft = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Half-written draft', status: 'draft' });
    const missing = await page(`/fixture-post/${draft.id}`);
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('<meta name="robots" content="noindex" />');
    expect(missing.html).not.toContain('Half-written draft');
    expect(missing.data.has('posts.byId')).toBe(false);
  });
});
