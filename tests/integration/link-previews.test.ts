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
 * Issue 30 items 2 and 5, read as a link-preview crawler reads them: one plain HTTP request, no
 * browser. /{username} and /post/{id} carry Open Graph and Twitter card tags (their picture: the
 * page's card, issue 50 item 2) and a canonical URL for what anyone may see, and the page's
 * first data for the SPA; private and hidden profiles, drafts and posts of a private creator are
 * 'not found' (404) and name nothing of themselves.
 */
let app: TestServer;
let distDir: string;

beforeAll(async () => {
  // the SPA's page template, as the build leaves it (the served page is index.html filled in), and
  // the page renderer, which runs a page's route loaders for its first data (server rendering off:
  // what is read here is the head and the data)
  distDir = await mkdtemp(path.join(tmpdir(), 'link-previews-'));
  await copyFile(path.resolve(import.meta.dirname, '../../index.html'), path.join(distDir, 'index.html'));
  await buildServerRenderer(distDir, 'error');
  app = await startTestServer({ workerQueues: [], env: { SERVE_SPA: 'true', DIST_DIR: distDir, SERVER_RENDER: 'false' } });
}, 180_000);
afterAll(async () => {
  await app?.close();
  await rm(distDir, { recursive: true, force: true });
});

interface Page {
  status: number;
  html: string;
  /** og:* and twitter:* tags, by property or name */
  tags: Record<string, string>;
  canonical: string | null;
  title: string | null;
  /** the dehydrated query cache's entries, by procedure path */
  data: Map<string, unknown>;
}

async function get(pathname: string, cookie?: string): Promise<Page> {
  const res = await fetch(`${app.url}${pathname}`, { headers: cookie ? { cookie } : {} });
  const html = await res.text();
  const tags: Record<string, string> = {};
  for (const [, key, value] of html.matchAll(/<meta (?:property|name)="((?:og|twitter|profile):[^"]+)" content="([^"]*)"/g)) tags[key!] = decode(value!);
  const script = new RegExp(`<script type="application/json" id="${FIRST_DATA_ELEMENT_ID}">(.*?)</script>`, 's').exec(html)?.[1];
  const data = new Map<string, unknown>();
  if (script) {
    const state = superjson.deserialize<{ queries: { queryKey: [string[], unknown]; state: { data: unknown } }[] }>(JSON.parse(script));
    for (const q of state.queries) data.set(q.queryKey[0].join('.'), q.state.data);
  }
  return {
    status: res.status,
    html,
    tags,
    canonical: /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1] ?? null,
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? null,
    data,
  };
}

const decode = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

describe('link previews and first data', () => {
  it('a public creator: name, bio, card, canonical URL, and the profile in the first data', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    await app.deps.db
      .updateTable('profiles')
      .set({ bio: 'Paints <big> skies & "seas" for $& friends', avatar_url: `/avatars/${creator.id}/a1.webp` })
      .where('id', '=', creator.id)
      .execute();
    await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Sky one', kind: null });

    const page = await get(`/${creator.username}`);
    expect(page.status).toBe(200);
    const name = `${creator.username[0]!.toUpperCase()}${creator.username.slice(1)} Tester`;
    expect(page.tags['og:title']).toBe(`${name} (@${creator.username})`);
    expect(page.tags['og:description']).toBe('Paints <big> skies & "seas" for $& friends');
    expect(page.tags['og:type']).toBe('profile');
    expect(page.tags['og:url']).toBe(`${app.url}/${creator.username}`);
    // the profile's card (issue 50 item 2: tests/integration/og-cards.test.ts), under an address of its version
    expect(page.tags['og:image']).toMatch(new RegExp(`^${app.url}/og/profile/${creator.username}\\.jpg\\?v=[\\w-]+$`));
    expect(page.tags['og:image:width']).toBe('1200');
    expect(page.tags['og:image:height']).toBe('630');
    expect(page.tags['twitter:card']).toBe('summary_large_image');
    expect(page.tags['twitter:image']).toBe(page.tags['og:image']);
    expect(page.canonical).toBe(`${app.url}/${creator.username}`);
    expect(page.title).toBe(`${name} (@${creator.username}) · CreatorHub`);
    // the user's text is text: no element of its own
    expect(page.html).not.toContain('<big>');
    // the same answers the client would fetch, under the keys it reads
    expect(page.data.get('profiles.byUsername')).toMatchObject({ username: creator.username, bio: expect.stringContaining('skies') });
    expect((page.data.get('profiles.posts') as { pages: { items: { title: string }[] }[] }).pages[0]!.items.map((p) => p.title)).toEqual(['Sky one']);
    expect(page.data.get('auth.me')).toBeNull();
  });

  it('a free and a premium image post: their cards, and nothing of the premium media in the page', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const free = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Morning light', text: 'First sketch </script><script>alert(1)</script>' });
    const premium = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Studio secrets', isPremium: true });

    const freePage = await get(`/post/${free.id}`);
    expect(freePage.status).toBe(200);
    expect(freePage.tags['og:title']).toBe('Morning light');
    expect(freePage.tags['og:type']).toBe('article');
    expect(freePage.tags['og:image']).toMatch(new RegExp(`^${app.url}/og/post/${free.id}\\.jpg\\?v=`));
    expect(freePage.tags['twitter:card']).toBe('summary_large_image');
    expect(freePage.canonical).toBe(`${app.url}/post/${free.id}`);
    // the post's text cannot close the data script or the page's markup
    expect(freePage.html).not.toContain('<script>alert(1)</script>');
    expect(freePage.data.get('posts.byId')).toMatchObject({ id: free.id, text: 'First sketch </script><script>alert(1)</script>' });
    expect(freePage.data.has('comments.list')).toBe(true);

    const premiumPage = await get(`/post/${premium.id}`);
    expect(premiumPage.status).toBe(200);
    // its card is drawn from the blurred preview alone (og-cards.test.ts looks at the picture)
    expect(premiumPage.tags['og:image']).toMatch(new RegExp(`^${app.url}/og/post/${premium.id}\\.jpg\\?v=`));
    expect(premiumPage.html).not.toContain(`/media/${premium.id}/web`);
    expect(premiumPage.html).not.toContain(`/media/${premium.id}/original`);
    // the visitor's access rule: the first data is the locked post too
    expect(premiumPage.data.get('posts.byId')).toMatchObject({ viewer: { canViewMedia: false }, media: { url: null } });
  });

  it('private and hidden profiles, drafts and a private creator\'s posts are not found and name nothing', async () => {
    const secret = await makeUser(app.deps.db, { isCreator: true, visibility: 'private' });
    const hidden = await makeUser(app.deps.db, { isCreator: true, visibility: 'hidden' });
    const open = await makeUser(app.deps.db, { isCreator: true });
    const secretPost = await makePost(app.deps.db, null, { creatorId: secret.id, title: 'Secret diary entry' });
    const draft = await makePost(app.deps.db, null, { creatorId: open.id, title: 'Unfinished draft title', status: 'draft' });

    for (const [pathname, words] of [
      [`/${secret.username}`, secret.username],
      [`/${hidden.username}`, hidden.username],
      [`/post/${secretPost.id}`, 'Secret diary entry'],
      [`/post/${draft.id}`, 'Unfinished draft title'],
      ['/post/not-a-post-id', 'not-a-post-id'],
    ] as const) {
      const page = await get(pathname);
      expect(page.status, pathname).toBe(404);
      expect(page.tags, pathname).toEqual({});
      expect(page.canonical, pathname).toBeNull();
      expect(page.html, pathname).toContain('<meta name="robots" content="noindex" />');
      expect(page.html.toLowerCase(), pathname).not.toContain(words.toLowerCase());
      expect(page.data.has('profiles.byUsername') || page.data.has('posts.byId'), pathname).toBe(false);
    }
  });

  it('a signed-in page carries the viewer\'s own first data but no link preview', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, title: 'Own words', isPremium: true });
    const { cookie } = await makeSessionCookie(app.deps.db, creator.id);

    const page = await get(`/post/${post.id}`, cookie);
    expect(page.status).toBe(200);
    expect(page.tags).toEqual({});
    // the owner sees the full media in the data: it is theirs, and the page is private
    expect(page.data.get('posts.byId')).toMatchObject({ viewer: { isOwner: true, canViewMedia: true } });
    expect(page.data.get('auth.me')).toMatchObject({ id: creator.id });
    const res = await fetch(`${app.url}/post/${post.id}`, { headers: { cookie } });
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('vary')).toMatch(/cookie/i);
  });

  it('robots.txt points to a sitemap of the creators anyone may see', async () => {
    const listed = await makeUser(app.deps.db, { isCreator: true });
    const secret = await makeUser(app.deps.db, { isCreator: true, visibility: 'private' });
    const hidden = await makeUser(app.deps.db, { isCreator: true, visibility: 'hidden' });
    const fan = await makeUser(app.deps.db);

    const robots = await (await fetch(`${app.url}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${app.url}/sitemap.xml`);
    expect(robots).toContain('Disallow: /settings');
    expect(robots).not.toMatch(/Disallow: \/media/);

    const res = await fetch(`${app.url}/sitemap.xml`);
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const sitemap = await res.text();
    expect(sitemap).toContain(`<loc>${app.url}/</loc>`);
    expect(sitemap).toContain(`<loc>${app.url}/${listed.username}</loc>`);
    for (const unlisted of [secret, hidden, fan]) expect(sitemap).not.toContain(unlisted.username);
  });
});
