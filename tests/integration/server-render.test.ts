import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMetrics } from '../../core/metrics';
import { buildServerRenderer } from '../../scripts/build-web';
import { makePost, makeSessionCookie, makeSubscription, makeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * Issue 30: a visitor's public pages are server-rendered HTML (src/entry-server.tsx through
 * server/http/server-render.ts), read here as a crawler or a phone before any script runs: one
 * plain HTTP request, no browser. The markup in #root carries the page's content; a premium
 * post is only its blurred preview there too; what a visitor may not see is not rendered at all.
 */
let app: TestServer;
let distDir: string;

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'server-render-'));
  // the page template as the build leaves it, and the renderer as `npm run build` makes it
  await copyFile(path.resolve(import.meta.dirname, '../../index.html'), path.join(distDir, 'index.html'));
  await buildServerRenderer(distDir, 'error');
  app = await startTestServer({ workerQueues: [], env: { SERVE_SPA: 'true', DIST_DIR: distDir } });
}, 180_000);
afterAll(async () => {
  await app?.close();
  await rm(distDir, { recursive: true, force: true });
});

/** The markup the server put into #root (empty when the browser is left to render the page). */
async function rendered(pathname: string, cookie?: string): Promise<{ status: number; root: string; html: string; cacheControl: string | null }> {
  const res = await fetch(`${app.url}${pathname}`, { headers: cookie ? { cookie } : {} });
  const html = await res.text();
  const start = html.indexOf('<div id="root">') + '<div id="root">'.length;
  const end = html.indexOf('<script type="application/json" id="first-data">');
  return { status: res.status, root: html.slice(start, end === -1 ? html.indexOf('</body>') : end), html, cacheControl: res.headers.get('cache-control') };
}

/** Text only, as a reader of the HTML sees it. */
const textOf = (markup: string) => markup.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

describe('server-rendered public pages', () => {
  it("a signed-in viewer's profile page is rendered in the browser (the markup checks below can fail)", async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Seen only after the scripts' });
    const { cookie } = await makeSessionCookie(app.deps.db, creator.id);
    const page = await rendered(`/${creator.username}`, cookie);
    expect(page.status).toBe(200);
    expect(page.root).toBe('</div>');
    expect(page.html).not.toContain('Seen only after the scripts</');
  });

  it('/, a profile and a post carry their content in the HTML before any script runs', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const name = `${creator.username[0]!.toUpperCase()}${creator.username.slice(1)} Tester`;
    await app.deps.db.updateTable('profiles').set({ bio: 'Paints <big> skies at dawn' }).where('id', '=', creator.id).execute();
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Harbour at noon', text: 'Blue on blue </script><script>alert(1)</script>', kind: null });

    const home = await rendered('/');
    expect(home.status).toBe(200);
    // the landing's hero and the public feed, whose newest post is this one
    expect(textOf(home.root)).toContain('Share Your Content, Your Way');
    expect(textOf(home.root)).toContain('Harbour at noon');

    const profile = await rendered(`/${creator.username}`);
    expect(profile.status).toBe(200);
    expect(profile.root).toMatch(new RegExp(`<h1[^>]*>${name}</h1>`));
    expect(textOf(profile.root)).toContain('Paints <big> skies at dawn');
    expect(profile.root).not.toContain('<big>');
    expect(textOf(profile.root)).toContain('Harbour at noon');

    const page = await rendered(`/post/${post.id}`);
    expect(page.status).toBe(200);
    expect(page.root).toMatch(/<h1[^>]*>Harbour at noon<\/h1>/);
    expect(textOf(page.root)).toContain('Blue on blue </script><script>alert(1)</script>');
    expect(page.html).not.toContain('<script>alert(1)</script>');
    // the router's data for the browser's hydration, allowed by this response's CSP nonce only
    const res = await fetch(`${app.url}/post/${post.id}`);
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    const body = await res.text();
    expect(nonce).toBeTruthy();
    expect(body).toContain(`<script nonce="${nonce}">`);
    for (const [, attributes] of body.matchAll(/<script([^>]*)>/g)) expect(attributes, attributes).toMatch(/nonce=|src=|type="application\/json"/);
  });

  it('pictures are sized to their box: srcset over the sizes a file has, sizes, dimensions, the first eager and high priority, the rest lazy', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const older = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Made before medium', createdAt: new Date(Date.now() - 60_000) });
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Made with medium', medium: true });
    const sizes = (id: string) => `/media/${id}/thumb 320w, /media/${id}/medium 720w, /media/${id}/web 1080w`;
    const imgOf = (markup: string, id: string) => new RegExp(`<img[^>]*src="/media/${id}/web"[^>]*>`).exec(markup)?.[0] ?? '';
    const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

    const profile = await rendered(`/${creator.username}`);
    const first = imgOf(profile.root, post.id);
    expect(attr(first, 'srcSet')).toBe(sizes(post.id));
    expect(attr(first, 'sizes')).toBe('(min-width: 768px) 624px, calc(100vw - 32px)');
    expect([attr(first, 'width'), attr(first, 'height')]).toEqual(['1080', '810']);
    expect([attr(first, 'loading'), attr(first, 'fetchPriority')]).toEqual(['eager', 'high']);
    // a file made before the 720 px size offers what it has; below the first, lazily
    const second = imgOf(profile.root, older.id);
    expect(attr(second, 'srcSet')).toBe(`/media/${older.id}/thumb 320w, /media/${older.id}/web 640w`);
    expect(attr(second, 'loading')).toBe('lazy');

    const page = await rendered(`/post/${post.id}`);
    const img = imgOf(page.root, post.id);
    expect(attr(img, 'srcSet')).toBe(sizes(post.id));
    expect(attr(img, 'sizes')).toBe('(min-width: 768px) 720px, calc(100vw - 32px)');
    expect([attr(img, 'width'), attr(img, 'height'), attr(img, 'fetchPriority')]).toEqual(['1080', '810', 'high']);
    // the head's preload asks for the same file the picture will
    const preload = /<link rel="preload" as="image" fetchpriority="high"[^>]*>/.exec(page.html)?.[0] ?? '';
    expect([attr(preload, 'imagesrcset'), attr(preload, 'imagesizes')]).toEqual([sizes(post.id), attr(img, 'sizes')]);
  });

  it("the renderer's own bundle is never served", async () => {
    const res = await fetch(`${app.url}/.ssr/entry-server.js`);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).not.toContain('renderPage');
  });

  it('a premium post is rendered as its blurred preview only, with no URL of the full file', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const premium = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Studio secrets', isPremium: true });

    for (const pathname of [`/post/${premium.id}`, `/${creator.username}`]) {
      const page = await rendered(pathname);
      expect(page.status, pathname).toBe(200);
      expect(textOf(page.root), pathname).toContain('Studio secrets');
      expect(page.root, pathname).toContain(`/media/${premium.id}/preview`);
      for (const variant of ['web', 'medium', 'thumb', 'original', 'mobile', 'poster']) expect(page.html, pathname).not.toContain(`/media/${premium.id}/${variant}`);
    }
  });

  it('private profiles, drafts and a private creator\'s posts are not found: nothing of them is rendered', async () => {
    const secret = await makeUser(app.deps.db, { isCreator: true, visibility: 'private' });
    const open = await makeUser(app.deps.db, { isCreator: true });
    const secretPost = await makePost(app.deps.db, null, { creatorId: secret.id, title: 'Secret diary entry' });
    const draft = await makePost(app.deps.db, null, { creatorId: open.id, title: 'Unfinished draft title', status: 'draft' });

    for (const [pathname, words] of [
      [`/${secret.username}`, secret.username],
      [`/post/${secretPost.id}`, 'Secret diary entry'],
      [`/post/${draft.id}`, 'Unfinished draft title'],
    ] as const) {
      const page = await rendered(pathname);
      expect(page.status, pathname).toBe(404);
      expect(page.root, pathname).toBe('</div>');
      expect(page.html.toLowerCase(), pathname).not.toContain(words.toLowerCase());
    }
  });

  it('a page opened again with the same data is served from its rendering, with a nonce of its own; a change renders anew', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Shared everywhere' });
    const open = async () => {
      const res = await fetch(`${app.url}/${creator.username}`);
      const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';
      return { nonce, html: await res.text() };
    };
    const before = await renders();
    const first = await open();
    const second = await open();
    expect(await renders()).toEqual({ rendered: before.rendered + 1, cached: before.cached + 1 });
    expect(textOf(second.html)).toContain('Shared everywhere');
    // each response's inline scripts carry its own nonce, never the one the markup was kept with
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.html).toContain(`<script nonce="${second.nonce}">`);
    expect(second.html).not.toContain(first.nonce);
    const root = (html: string) => html.slice(html.indexOf('<div id="root">'), html.indexOf('<script type="application/json" id="first-data">'));
    expect(root(second.html).replaceAll(second.nonce, 'N')).toBe(root(first.html).replaceAll(first.nonce, 'N'));

    await app.deps.db.updateTable('profiles').set({ bio: 'A new bio, seen at once' }).where('id', '=', creator.id).execute();
    await expect.poll(async () => textOf((await open()).html)).toContain('A new bio, seen at once');
    expect((await renders()).rendered).toBeGreaterThan(before.rendered + 1);
  });
});

describe("a signed-in fan's home feed, server-rendered", () => {
  it('each fan gets their own shell and feed in the HTML, before any script; a premium picture is whole only for its subscriber', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const premium = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Members-only sketchbook', isPremium: true });
    const subscriber = await makeUser(app.deps.db);
    const other = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: subscriber.id, creatorId: creator.id });
    const cookies = { subscriber: (await makeSessionCookie(app.deps.db, subscriber.id)).cookie, other: (await makeSessionCookie(app.deps.db, other.id)).cookie };

    // each asked twice, alternately: a kept rendering must never go to another fan
    for (let round = 0; round < 2; round++) {
      for (const [fan, them] of [
        [subscriber, other],
        [other, subscriber],
      ] as const) {
        const page = await rendered('/', fan === subscriber ? cookies.subscriber : cookies.other);
        expect(page.status).toBe(200);
        expect(page.cacheControl).toBe('private, no-cache');
        // the feed, not the landing, and its newest post painted from the HTML: no script comes before it
        expect(textOf(page.root)).toContain('Your feed');
        expect(textOf(page.root)).not.toContain('Share Your Content, Your Way');
        expect(textOf(page.root)).toContain('Members-only sketchbook');
        expect(page.html.indexOf('Members-only sketchbook')).toBeLessThan(page.html.indexOf('<script'));
        // the shell is this fan's (their profile link), and nothing of the other fan is anywhere in the page
        expect(page.root).toContain(`href="/${fan.username}"`);
        expect(page.html).not.toContain(them.username);
        if (fan === subscriber) {
          expect(page.root).toContain(`/media/${premium.id}/web`);
        } else {
          expect(page.root).toContain(`/media/${premium.id}/preview`);
          for (const variant of ['web', 'thumb', 'original', 'mobile', 'poster']) expect(page.html).not.toContain(`/media/${premium.id}/${variant}`);
        }
      }
    }
  });

  it('signed out, / is the landing page for everyone', async () => {
    const fan = await makeUser(app.deps.db);
    await rendered('/', (await makeSessionCookie(app.deps.db, fan.id)).cookie);
    const page = await rendered('/');
    expect(page.status).toBe(200);
    expect(page.cacheControl).toBe('no-cache');
    expect(textOf(page.root)).toContain('Share Your Content, Your Way');
    expect(textOf(page.root)).not.toContain('Your feed');
    expect(page.html).not.toContain(fan.username);
  });
});

/**
 * Issue 46 item 2: a page is a visitor's (`no-cache`, which a shared cache may store and serve
 * after asking) only when nothing says otherwise. A page made for a request with a session cookie,
 * or one that sets or renews a cookie, is `private`, whether its session resolved, its cookie was
 * stale, or its first data did not come in time. Each is followed by a visitor's request.
 */
describe('a page made for a session cookie is private', () => {
  const setCookieOf = async (pathname: string, cookie?: string) => {
    const res = await fetch(`${app.url}${pathname}`, { headers: cookie ? { cookie } : {} });
    await res.arrayBuffer();
    return { status: res.status, cacheControl: res.headers.get('cache-control'), setCookie: res.headers.get('set-cookie') };
  };

  it('a stale cookie (an expired session, a token that never was) gets a private page that clears it', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Open to all' });
    const gone = await makeUser(app.deps.db);
    const expired = await makeSessionCookie(app.deps.db, gone.id);
    await app.deps.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', expired.sessionId).execute();
    const cookies = [`session =${expired.token}`, 'session=never-a-session', `session\t=${expired.token}`];
    for (const pathname of ['/', `/${creator.username}`, `/post/${post.id}`]) {
      for (const cookie of cookies) {
        const page = await setCookieOf(pathname, cookie);
        expect(page.status, `${pathname} ${cookie}`).toBe(200);
        expect(page.cacheControl, `${pathname} ${cookie}`).toBe('private, no-cache');
        expect(page.setCookie, `${pathname} ${cookie}`).toMatch(/^session=;/);
      }
      const visitor = await setCookieOf(pathname);
      expect(visitor.cacheControl, pathname).toBe('no-cache');
      expect(visitor.setCookie, pathname).toBeNull();
    }
  });

  it('a page whose first data timed out after its session was renewed is private, and carries none of it', async () => {
    const fan = await makeUser(app.deps.db);
    const { token, cookie, sessionId } = await makeSessionCookie(app.deps.db, fan.id);
    // a day left: this request renews it (SESSION.renewWhenUnderMs)
    await app.deps.db.updateTable('sessions').set({ expires_at: new Date(Date.now() + 24 * 3600_000) }).where('id', '=', sessionId).execute();

    // the home page's feed cannot read posts for longer than the page waits for its data (1.5 s)
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = app.deps.db.transaction().execute(async (trx) => {
      await sql`lock table posts in access exclusive mode`.execute(trx);
      locked();
      await sleep(2_500);
    });
    await isLocked;
    const res = await fetch(`${app.url}/`, { headers: { cookie } });
    const html = await res.text();
    await holding;
    expect(res.status).toBe(200);
    // the session was read, and renewed, before the data ran out of time
    expect(res.headers.get('set-cookie')).toContain(`session=${token};`);
    expect(html).not.toContain('<script type="application/json" id="first-data">');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');

    const visitor = await setCookieOf('/');
    expect(visitor.cacheControl).toBe('no-cache');
    expect(visitor.setCookie).toBeNull();
  });
});

/** server_render_total by outcome, as /metrics shows it now. */
async function renders(): Promise<{ rendered: number; cached: number }> {
  const { body } = await renderMetrics();
  const count = (outcome: string) => Number(body.split('\n').find((l) => l.startsWith(`server_render_total{outcome="${outcome}"}`))?.split(' ').pop() ?? 0);
  return { rendered: count('rendered'), cached: count('cached') };
}
