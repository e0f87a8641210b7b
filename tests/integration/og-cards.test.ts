import { randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ogs from 'open-graph-scraper';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatarKey, avatarUrl } from '../../common/settings';
import { renderMetrics } from '../../core/metrics';
import { buildServerRenderer } from '../../scripts/build-web';
import { resetRateLimits } from '../../server/auth/rate-limit';
import { OG_CARD_RATE_LIMIT } from '../../server/features/og-cards/og-cards.http';
import { makePost, makeSessionCookie, makeSubscription, makeUser, type MadeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * Issue 50 item 2: every public profile and post has a 1200x630 link preview picture, named in
 * its page's head and read here as a scraper reads them: the page's HTML parsed by a real Open
 * Graph parser (open-graph-scraper), then the picture it names fetched and decoded.
 */
let app: TestServer;
let distDir: string;

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'og-cards-'));
  await copyFile(path.resolve(import.meta.dirname, '../../index.html'), path.join(distDir, 'index.html'));
  // a page's first data (and so its head) comes from its route's loaders, run by the built renderer
  await buildServerRenderer(distDir, 'error');
  app = await startTestServer({ workerQueues: [], env: { SERVE_SPA: 'true', DIST_DIR: distDir, SERVER_RENDER: 'false' } });
});
afterAll(async () => {
  await app?.close();
  await rm(distDir, { recursive: true, force: true });
});

const RED = { r: 220, g: 30, b: 30 };
const BLUE = { r: 30, g: 60, b: 230 };
const GREEN = { r: 30, g: 200, b: 60 };

const solid = (width: number, height: number, colour: typeof RED) => sharp({ create: { width, height, channels: 3, background: colour } });

/** The link preview a scraper reads from the page: open-graph-scraper over the anonymous HTML. */
async function preview(pathname: string, cookie?: string) {
  const res = await fetch(`${app.url}${pathname}`, { headers: cookie ? { cookie } : {} });
  expect(res.status, pathname).toBe(200);
  const { result } = await ogs({ html: await res.text() });
  return result;
}

async function image(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  return { res, body };
}

/** The mean colour of a region of a picture. */
async function meanColour(picture: Buffer, region: { left: number; top: number; width: number; height: number }) {
  // stats() reads the input, not the pipeline: the region is cut out first
  const cut = await sharp(picture).extract(region).removeAlpha().raw().toBuffer();
  const sum = [0, 0, 0];
  for (let i = 0; i < cut.length; i++) sum[i % 3]! += cut[i]!;
  const [r, g, b] = sum.map((s) => s / (cut.length / 3));
  return { r: r!, g: g!, b: b! };
}

/** A post's picture panel (card-layout.ts: the right 500 px), away from the premium badge in its middle. */
const PANEL_CORNER = { left: 1020, top: 24, width: 150, height: 120 };

/** og_card_total by outcome, as /metrics shows it now. */
async function cardCounts() {
  const { body } = await renderMetrics();
  const count = (outcome: string) => Number(body.split('\n').find((l) => l.startsWith(`og_card_total{outcome="${outcome}"}`))?.split(' ').pop() ?? 0);
  return { rendered: count('rendered'), cached: count('cached'), notModified: count('not_modified') };
}

/** An image post whose every full-size file is red, and whose blurred preview (premium, pay-per-view) is blue. */
async function redPost(creator: MadeUser, opts: { isPremium?: boolean; unlock?: { priceCents: number; mode: 'everyone' } ; title?: string } = {}) {
  const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, title: opts.title ?? 'Red study', ...opts });
  for (const [variant, key] of Object.entries(post.keys)) {
    const bytes = variant === 'preview' ? await solid(64, 48, BLUE).jpeg().toBuffer() : await solid(1080, 810, RED).jpeg().toBuffer();
    await app.deps.storage.put(key, bytes, 'image/jpeg');
  }
  return post;
}

describe('link preview cards (issue 50 item 2)', () => {
  it("a profile without an avatar (the demo's creators) gets a 1200x630 card, served once and then from cache", async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    await makePost(app.deps.db, null, { creatorId: creator.id, kind: null, title: 'Hello' });

    const og = await preview(`/${creator.username}`);
    const card = og.ogImage?.[0];
    expect(card?.url).toMatch(new RegExp(`^${app.url}/og/profile/${creator.username}\\.jpg\\?v=[\\w-]+$`));
    expect(Number(card?.width)).toBe(1200);
    expect(Number(card?.height)).toBe(630);
    expect(card?.alt).toContain(`@${creator.username}`);
    expect(og.twitterCard).toBe('summary_large_image');
    expect(og.twitterImage?.[0]?.url).toBe(card!.url);

    const before = await cardCounts();
    const first = await image(card!.url);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get('content-type')).toBe('image/jpeg');
    expect(first.res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // other sites may show it
    expect(first.res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const meta = await sharp(first.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 630]);
    const etag = first.res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);

    // a scraper that has it: 304, nothing drawn; one that has not: the same bytes, nothing drawn
    const again = await image(card!.url, { 'if-none-match': etag! });
    expect(again.res.status).toBe(304);
    const second = await image(card!.url);
    expect(second.res.status).toBe(200);
    expect(second.body.equals(first.body)).toBe(true);
    const after = await cardCounts();
    expect(after.rendered - before.rendered).toBe(1);
    expect(after.cached - before.cached).toBe(1);
    expect(after.notModified - before.notModified).toBe(1);
  });

  it('the address changes when what the card shows changes, and the new card is drawn from the avatar', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const first = (await preview(`/${creator.username}`)).ogImage![0]!.url;
    const plain = (await image(first)).body;

    // a new subscriber: the count on the card, so a new address
    await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: creator.id });
    const counted = (await preview(`/${creator.username}`)).ogImage![0]!.url;
    expect(counted).not.toBe(first);

    // an avatar: drawn round on the card, and (blurred, darkened) behind it
    const upload = randomUUID();
    await app.deps.storage.put(avatarKey(creator.id, upload), await solid(400, 400, GREEN).webp().toBuffer(), 'image/webp');
    await app.deps.db.updateTable('profiles').set({ avatar_url: avatarUrl(creator.id, upload) }).where('id', '=', creator.id).execute();
    const withAvatar = (await preview(`/${creator.username}`)).ogImage![0]!.url;
    expect(withAvatar).not.toBe(counted);
    const drawn = (await image(withAvatar)).body;
    expect(drawn.equals(plain)).toBe(false);
    // the avatar's circle (card-layout.ts: 260 px at the left, in the middle of the space above the brand line)
    const avatar = await meanColour(drawn, { left: 164, top: 260, width: 60, height: 60 });
    expect(avatar.g).toBeGreaterThan(150);
    expect(avatar.r).toBeLessThan(90);

    // the old address still answers (with the current card), but is no longer kept for good
    const old = await image(first);
    expect(old.res.status).toBe(200);
    expect(old.res.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it("a post's card shows its picture; a premium or pay-per-view post's only its blurred preview", async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const free = await redPost(creator, { title: 'Free red' });
    const premium = await redPost(creator, { title: 'Premium red', isPremium: true });
    const payPerView = await redPost(creator, { title: 'Pay red', unlock: { priceCents: 50_00, mode: 'everyone' } });

    const og = await preview(`/post/${free.id}`);
    expect(og.ogImage?.[0]?.url).toMatch(new RegExp(`^${app.url}/og/post/${free.id}\\.jpg\\?v=`));
    expect([Number(og.ogImage?.[0]?.width), Number(og.ogImage?.[0]?.height)]).toEqual([1200, 630]);
    expect(og.twitterCard).toBe('summary_large_image');
    const freeCard = (await image(og.ogImage![0]!.url)).body;
    expect(await sharp(freeCard).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });
    const shown = await meanColour(freeCard, PANEL_CORNER);
    expect(shown.r).toBeGreaterThan(170);
    expect(shown.b).toBeLessThan(80);

    for (const locked of [premium, payPerView]) {
      const lockedOg = await preview(`/post/${locked.id}`);
      const url = lockedOg.ogImage![0]!.url;
      expect(url).toMatch(new RegExp(`/og/post/${locked.id}\\.jpg\\?v=`));
      const card = (await image(url)).body;
      expect(await sharp(card).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });
      // the blue preview, never the red full-size picture
      const panel = await meanColour(card, PANEL_CORNER);
      expect(panel.b, locked.id).toBeGreaterThan(150);
      expect(panel.r, locked.id).toBeLessThan(90);
    }
  });

  it('a private, hidden or unknown profile, a draft, a private creator\'s post: 404, whoever asks', async () => {
    const secret = await makeUser(app.deps.db, { isCreator: true, visibility: 'private' });
    const hidden = await makeUser(app.deps.db, { isCreator: true, visibility: 'hidden' });
    const open = await makeUser(app.deps.db, { isCreator: true });
    const secretPost = await makePost(app.deps.db, null, { creatorId: secret.id });
    const draft = await makePost(app.deps.db, null, { creatorId: open.id, status: 'draft' });
    const { cookie } = await makeSessionCookie(app.deps.db, secret.id);

    for (const pathname of [
      `/og/profile/${secret.username}.jpg`,
      `/og/profile/${hidden.username}.jpg`,
      '/og/profile/nobody-by-this-name.jpg',
      `/og/post/${secretPost.id}.jpg`,
      `/og/post/${draft.id}.jpg`,
      `/og/post/${randomUUID()}.jpg`,
      '/og/post/not-an-id.jpg',
      `/og/profile/${open.username}.png`,
      '/og/elsewhere',
    ]) {
      const res = await fetch(`${app.url}${pathname}`);
      expect(res.status, pathname).toBe(404);
      expect(res.headers.get('content-type'), pathname).toMatch(/json/);
    }
    // the owner of the private profile too: a card is what everyone sees
    const own = await fetch(`${app.url}/og/profile/${secret.username}.jpg`, { headers: { cookie } });
    expect(own.status).toBe(404);
    // and the open creator's card is there
    expect((await fetch(`${app.url}/og/profile/${open.username}.jpg`)).status).toBe(200);
  });

  it('counts requests per address: past the limit, 429 with Retry-After', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const url = `${app.url}/og/profile/${creator.username}.jpg`;
    await resetRateLimits(app.deps.redis, app.deps.config.REDIS_PREFIX);
    try {
      const statuses: number[] = [];
      for (let i = 0; i <= OG_CARD_RATE_LIMIT.points; i++) statuses.push((await fetch(url, { method: 'HEAD' })).status);
      expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      const refused = await fetch(url);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await resetRateLimits(app.deps.redis, app.deps.config.REDIS_PREFIX);
    }
  });
});
