import { io as connect, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProfileVisibility } from '../../../common/enums';
import type { ClientToServerEvents, PostPublishedEvent, ServerToClientEvents } from '../../../common/socket-events';
import { makePost, makeSessionCookie, makeSubscription, makeUser, type MadeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import type { TestServer } from '../../../tests/helpers/test-server';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';

// every test starts from no users at all
const app = useFileServer({ emptyUsers: true });

const MINUTE = 60_000;
const minutesAgo = (n: number) => new Date(Date.now() - n * MINUTE);
const creator = (visibility: ProfileVisibility = 'public', extra: { isPremium?: boolean; username?: string } = {}) =>
  makeUser(app.deps.db, { isCreator: true, visibility, ...extra });
const fan = () => makeUser(app.deps.db);
const post = (c: MadeUser, opts: Omit<Parameters<typeof makePost>[2], 'creatorId'> = {}) =>
  makePost(app.deps.db, null, { creatorId: c.id, ...opts });

/** A subscription (and the spec's subscriber record, written with it), active unless told otherwise. */
async function subscribe(subscriber: MadeUser, to: MadeUser | null, opts: { status?: 'active' | 'canceled' | 'expired'; periodEnd?: Date } = {}) {
  await makeSubscription(app.deps.db, { subscriberId: subscriber.id, creatorId: to?.id ?? null, status: opts.status, periodEnd: opts.periodEnd });
}

const profileOf = (client: ReturnType<TestServer['client']>, username: string) => client.trpc.profiles.byUsername.query({ username });

describe('profiles.byUsername', () => {
  it('maps the header card with real counts, for a visitor, a signed-in user and the owner', async () => {
    const ava = await creator('public', { username: 'ava' });
    await app.deps.db
      .updateTable('profiles')
      .set({
        bio: 'Painter',
        categories: ['Art', 'Music'],
        is_verified: true,
        social_links: JSON.stringify({ twitter: 'avamoreau', website: 'https://ava.example' }),
        custom_links: JSON.stringify([{ title: 'Shop', url: 'https://shop.example' }, { title: 'Bad', url: 'javascript:alert(1)' }]),
      })
      .where('id', '=', ava.id)
      .execute();
    await post(ava, { kind: 'image' });
    await post(ava, { kind: 'video' });
    await post(ava, { kind: 'audio' });
    await post(ava, { kind: 'image', status: 'draft' });
    await post(ava, { kind: 'image', status: 'processing' });
    const [f1, f2, f3] = [await fan(), await fan(), await fan()];
    await subscribe(f1, ava);
    await subscribe(f2, ava);
    await subscribe(f3, ava, { status: 'canceled' });

    const visitor = await profileOf(app.client(), 'ava');
    expect(visitor).toEqual({
      id: ava.id,
      username: 'ava',
      displayName: 'Ava Tester',
      avatarUrl: null,
      bio: 'Painter',
      categories: ['Art', 'Music'],
      isVerified: true,
      isPremium: false,
      isCreator: true,
      socialLinks: { twitter: 'avamoreau', website: 'https://ava.example' },
      // a stored link that is not http(s) is never handed out
      customLinks: [{ title: 'Shop', url: 'https://shop.example' }],
      subscriberCount: 2,
      postCount: 3,
      mediaCount: 2,
      draftCount: null,
      // her fans subscribe to a tier: Subscribe leads somewhere
      hasTier: true,
      viewer: { isOwner: false, isSubscribed: false, canMessage: false },
      showUpgradeCard: false,
    });
    const asF1 = await clientAs(app, f1.id);
    expect((await profileOf(asF1, 'AVA')).viewer).toEqual({ isOwner: false, isSubscribed: true, canMessage: true });
    const owner = await profileOf(await clientAs(app, ava.id), 'ava');
    expect(owner.viewer).toEqual({ isOwner: true, isSubscribed: false, canMessage: false });
    expect(owner.draftCount).toBe(1);
    expect(owner.showUpgradeCard).toBe(true);
  });

  it("answers 'Username is required' and 'Profile not found'", async () => {
    await expectTrpcError(app.client().trpc.profiles.byUsername.query({ username: '  ' }), 'BAD_REQUEST', 'Username is required');
    await expectTrpcError(profileOf(app.client(), 'nobody'), 'NOT_FOUND', 'Profile not found');
  });

  it('shows a private or hidden profile only to its owner; everyone else gets NOT_FOUND, posts included', async () => {
    for (const visibility of ['private', 'hidden'] as const) {
      const shy = await creator(visibility);
      await post(shy, { text: 'secret words' });
      const other = await clientAs(app, (await fan()).id);
      for (const client of [app.client(), other]) {
        await expectTrpcError(profileOf(client, shy.username), 'NOT_FOUND', 'Profile not found');
        await expectTrpcError(client.trpc.profiles.posts.query({ username: shy.username }), 'NOT_FOUND', 'Profile not found');
        await expectTrpcError(client.trpc.profiles.posts.query({ username: shy.username, q: 'secret' }), 'NOT_FOUND', 'Profile not found');
      }
      // not even a subscriber sees it
      const subscriber = await fan();
      await subscribe(subscriber, shy);
      await expectTrpcError(profileOf(await clientAs(app, subscriber.id), shy.username), 'NOT_FOUND', 'Profile not found');

      const owner = await clientAs(app, shy.id);
      expect((await profileOf(owner, shy.username)).viewer.isOwner).toBe(true);
      expect((await owner.trpc.profiles.posts.query({ username: shy.username })).items).toHaveLength(1);
    }
    // 'friends': the owner and active subscribers only (server/features/settings/settings.test.ts has the whole rule)
    const friends = await creator('friends');
    await expectTrpcError(profileOf(app.client(), friends.username), 'NOT_FOUND', 'Profile not found');
    const friend = await fan();
    await subscribe(friend, friends);
    expect((await profileOf(await clientAs(app, friend.id), friends.username)).id).toBe(friends.id);
  });

  it('says Subscribed only with an active, unexpired subscription to this creator', async () => {
    const ava = await creator();
    const other = await creator();
    const premium = await post(ava, { isPremium: true });
    const cases: [string, { to: MadeUser | null; status?: 'active' | 'canceled' | 'expired'; periodEnd?: Date } | null, boolean][] = [
      ['no subscription', null, false],
      ['active subscription', { to: ava }, true],
      ['canceled', { to: ava, status: 'canceled' }, false],
      ['expired', { to: ava, status: 'expired' }, false],
      ['period ended', { to: ava, periodEnd: minutesAgo(1) }, false],
      ['subscribed to another creator', { to: other }, false],
      ['the Premium upgrade only', { to: null }, false],
    ];
    for (const [label, setup, expected] of cases) {
      const someone = await fan();
      if (setup) await subscribe(someone, setup.to, setup);
      const client = await clientAs(app, someone.id);
      expect((await profileOf(client, ava.username)).viewer.isSubscribed, label).toBe(expected);
      // Subscribed exactly when the premium posts are unlocked: one definition for both
      const [card] = (await client.trpc.profiles.posts.query({ username: ava.username })).items;
      expect(card!.id).toBe(premium.id);
      expect(card!.viewer.canViewMedia, label).toBe(expected);
    }
  });

  it('runs one query for the header (besides the session)', async () => {
    const ava = await creator();
    for (let i = 0; i < 3; i++) await post(ava);
    const client = await clientAs(app, (await fan()).id);
    app.queries.reset();
    await profileOf(client, ava.username);
    expect(app.queries.withoutSession()).toHaveLength(1);
    app.queries.reset();
    await profileOf(app.client(), ava.username);
    expect(app.queries.list()).toHaveLength(1);
  });
});

describe('profiles.posts', () => {
  it("pages the creator's published posts 5 at a time, newest first, with premium gating", async () => {
    const ava = await creator();
    const other = await creator();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await post(ava, { createdAt: minutesAgo(100 - i), isPremium: i % 3 === 0 })).id);
    await post(ava, { status: 'draft', createdAt: minutesAgo(1) });
    await post(ava, { status: 'failed', createdAt: minutesAgo(1) });
    await post(other, { createdAt: minutesAgo(1) });
    const newestFirst = [...ids].reverse();

    const visitor = app.client().trpc;
    const one = await visitor.profiles.posts.query({ username: ava.username });
    const two = await visitor.profiles.posts.query({ username: ava.username, cursor: one.nextCursor });
    const fresh = await post(ava, { createdAt: new Date() });
    const three = await visitor.profiles.posts.query({ username: ava.username, cursor: two.nextCursor });
    expect(one.items.map((p) => p.id)).toEqual(newestFirst.slice(0, 5));
    expect(two.items.map((p) => p.id)).toEqual(newestFirst.slice(5, 10));
    expect(three.items.map((p) => p.id)).toEqual(newestFirst.slice(10));
    expect(three.nextCursor).toBeNull();
    expect([...one.items, ...two.items, ...three.items].map((p) => p.id)).not.toContain(fresh.id);
    // locked for a visitor, open for a subscriber and the owner
    const premiumCard = one.items.find((p) => p.isPremium)!;
    expect(premiumCard.viewer.canViewMedia).toBe(false);
    expect(premiumCard.media?.url).toBeNull();
    const subscriber = await fan();
    await subscribe(subscriber, ava);
    for (const id of [subscriber.id, ava.id]) {
      const page = await (await clientAs(app, id)).trpc.profiles.posts.query({ username: ava.username });
      expect(page.items.every((p) => p.viewer.canViewMedia)).toBe(true);
      // the owner's Content tab holds published posts only; drafts have their own tab
      expect(page.items.every((p) => p.status === 'published')).toBe(true);
    }
  });

  it('shows only images and videos in the media view, and the header counts the same', async () => {
    const ava = await creator();
    const media = [await post(ava, { kind: 'image', createdAt: minutesAgo(6) }), await post(ava, { kind: 'video', createdAt: minutesAgo(5) })];
    for (const kind of ['audio', 'pdf', 'document', null] as const) await post(ava, { kind, createdAt: minutesAgo(4) });
    await post(ava, { kind: 'image', status: 'draft' });

    const client = app.client().trpc;
    const page = await client.profiles.posts.query({ username: ava.username, kind: 'media', limit: 20 });
    expect(page.items.map((p) => p.id)).toEqual(media.map((p) => p.id).reverse());
    expect(page.items.map((p) => p.mediaKind)).toEqual(['video', 'image']);
    expect((await client.profiles.posts.query({ username: ava.username, limit: 20 })).items).toHaveLength(6);
    const header = await profileOf(app.client(), ava.username);
    expect([header.mediaCount, header.postCount]).toEqual([2, 6]);
  });

  it('searches within the profile by stemmed words and by hashtag', async () => {
    const ava = await creator();
    const other = await creator();
    const run = await post(ava, { text: 'Morning run by the river', hashtags: ['outdoors'] });
    const tagged = await post(ava, { text: 'Studio day', hashtags: ['watercolour', 'the'] });
    await post(ava, { text: 'Nothing to see', hashtags: [] });
    await post(ava, { text: 'Running late again, draft', status: 'draft' });
    await post(other, { text: 'I was running too', hashtags: ['watercolour'] });

    const find = async (q: string) =>
      (await app.client().trpc.profiles.posts.query({ username: ava.username, q })).items.map((p) => p.id);
    expect(await find('running')).toEqual([run.id]);
    expect(await find('RIVERS')).toEqual([run.id]);
    expect(await find('#watercolour')).toEqual([tagged.id]);
    expect(await find('watercolour')).toEqual([tagged.id]);
    expect(await find('#outdoors')).toEqual([run.id]);
    // a hashtag the text parser would drop as a stop word still matches as a tag
    expect(await find('#the')).toEqual([tagged.id]);
    expect(await find('bicycle')).toEqual([]);
    expect(await find("'); drop table posts; --")).toEqual([]);
    expect((await find('  ')).length).toBe(3);
  });

  it('runs the same number of queries whatever the page size', async () => {
    const ava = await creator();
    for (let i = 0; i < 20; i++) await post(ava, { isPremium: i % 2 === 1, createdAt: minutesAgo(50 - i) });
    const viewer = await fan();
    await subscribe(viewer, ava);
    const client = await clientAs(app, viewer.id);
    const counts: number[] = [];
    for (const limit of [1, 5, 20]) {
      app.queries.reset();
      expect((await client.trpc.profiles.posts.query({ username: ava.username, limit })).items).toHaveLength(limit);
      counts.push(app.queries.withoutSession().length);
    }
    // the profile, then the page with its counts, the viewer's state, entitlements and media
    expect(counts).toEqual([2, 2, 2]);
  });
});

describe('profiles.drafts and profiles.publishDraft', () => {
  const sockets: Socket<ServerToClientEvents, ClientToServerEvents>[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });

  async function socketOf(user: MadeUser) {
    const { cookie } = await makeSessionCookie(app.deps.db, user.id);
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(app.url, {
      transports: ['websocket'],
      extraHeaders: { origin: app.url, cookie },
      reconnection: false,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const seen: PostPublishedEvent[] = [];
    socket.on('post:published', (event) => seen.push(event));
    return seen;
  }

  it("lists only the caller's own drafts, 10 per page", async () => {
    const ava = await creator();
    const bob = await creator();
    const drafts: string[] = [];
    for (let i = 0; i < 12; i++) drafts.push((await post(ava, { status: 'draft', createdAt: minutesAgo(60 - i) })).id);
    await post(ava, { status: 'published' });
    const bobsDraft = await post(bob, { status: 'draft' });

    const asAva = await clientAs(app, ava.id);
    const one = await asAva.trpc.profiles.drafts.query({});
    const two = await asAva.trpc.profiles.drafts.query({ cursor: one.nextCursor });
    expect(one.items).toHaveLength(10);
    expect([...one.items, ...two.items].map((p) => p.id)).toEqual([...drafts].reverse());
    expect(two.nextCursor).toBeNull();
    expect(one.items.every((p) => p.status === 'draft' && p.viewer.isOwner)).toBe(true);

    const asBob = await clientAs(app, bob.id);
    expect((await asBob.trpc.profiles.drafts.query({})).items.map((p) => p.id)).toEqual([bobsDraft.id]);
    await expectTrpcError(app.client().trpc.profiles.drafts.query({}), 'UNAUTHORIZED');
    // drafts never leak through the public lists
    expect((await app.client().trpc.profiles.posts.query({ username: ava.username, limit: 20 })).items).toHaveLength(1);
  });

  it('publishes the owner\'s draft: listed in Content, gone from Drafts, post:published sent', async () => {
    const ava = await creator();
    const watcher = await fan();
    const draft = await post(ava, { status: 'draft', createdAt: minutesAgo(5) });
    const ownerEvents = await socketOf(ava);
    const feedEvents = await socketOf(watcher);

    const asAva = await clientAs(app, ava.id);
    expect(await asAva.trpc.profiles.publishDraft.mutate({ postId: draft.id })).toEqual({ postId: draft.id, status: 'published' });
    const row = await app.deps.db.selectFrom('posts').select(['status', 'target_status', 'published_at']).where('id', '=', draft.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('published');
    expect(row.target_status).toBe('published');
    expect(row.published_at).toBeInstanceOf(Date);
    expect((await asAva.trpc.profiles.drafts.query({})).items).toEqual([]);
    expect((await app.client().trpc.profiles.posts.query({ username: ava.username })).items.map((p) => p.id)).toEqual([draft.id]);
    expect((await profileOf(asAva, ava.username)).draftCount).toBe(0);

    // the creator hears once, with the optimisticId; the feed without it
    await expect.poll(() => ownerEvents, { timeout: 5000 }).toEqual([{ postId: draft.id, creatorId: ava.id, optimisticId: null }]);
    await expect.poll(() => feedEvents, { timeout: 5000 }).toEqual([{ postId: draft.id, creatorId: ava.id }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(ownerEvents).toHaveLength(1);

    // a second press finds no draft
    await expectTrpcError(asAva.trpc.profiles.publishDraft.mutate({ postId: draft.id }), 'NOT_FOUND', 'Post not found');
  });

  it("tells only the creator when a private creator publishes (the feed must not learn of it)", async () => {
    const shy = await creator('private');
    const draft = await post(shy, { status: 'draft' });
    const ownerEvents = await socketOf(shy);
    const feedEvents = await socketOf(await fan());
    await (await clientAs(app, shy.id)).trpc.profiles.publishDraft.mutate({ postId: draft.id });
    await expect.poll(() => ownerEvents.length, { timeout: 5000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(feedEvents).toEqual([]);
  });

  it("refuses another user's draft, a processing post and an unknown id, changing nothing", async () => {
    const ava = await creator();
    const bob = await creator();
    const draft = await post(ava, { status: 'draft' });
    const processing = await post(bob, { status: 'processing' });
    const asBob = await clientAs(app, bob.id);
    for (const postId of [draft.id, processing.id, '00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
      await expectTrpcError(asBob.trpc.profiles.publishDraft.mutate({ postId }), 'NOT_FOUND', 'Post not found');
    }
    await expectTrpcError(app.client().trpc.profiles.publishDraft.mutate({ postId: draft.id }), 'UNAUTHORIZED');
    const statuses = await app.deps.db.selectFrom('posts').select(['id', 'status']).orderBy('status').execute();
    expect(statuses.map((s) => s.status).sort()).toEqual(['draft', 'processing']);
  });
});

describe('links', () => {
  const linksOf = async (user: MadeUser) =>
    (await app.deps.db.selectFrom('profiles').select(['custom_links', 'social_links']).where('id', '=', user.id).executeTakeFirstOrThrow());

  it('adds a link with both fields and an http(s) URL, and says what is wrong otherwise', async () => {
    const ava = await creator();
    const asAva = await clientAs(app, ava.id);
    const add = (title: string, url: string) => asAva.trpc.profiles.addLink.mutate({ title, url });

    await expectTrpcError(add('', 'https://a.example'), 'BAD_REQUEST', 'Please fill in both title and URL fields');
    await expectTrpcError(add('Shop', '  '), 'BAD_REQUEST', 'Please fill in both title and URL fields');
    await expectTrpcError(add('', ''), 'BAD_REQUEST', 'Please fill in both title and URL fields');
    for (const url of ['javascript:alert(1)', 'data:text/html,hi', 'ftp://files.example', 'mailto:a@b.example', 'https://a.example/ x']) {
      await expectTrpcError(add('Bad', url), 'BAD_REQUEST', 'Please enter a valid URL starting with http:// or https://');
    }
    expect((await linksOf(ava)).custom_links).toEqual([]);

    expect(await add('Shop', 'https://shop.example/x')).toEqual([{ title: 'Shop', url: 'https://shop.example/x' }]);
    expect(await add(' Blog ', 'http://blog.example')).toHaveLength(2);
    expect((await add('Bare', 'bare.example')).at(-1)).toEqual({ title: 'Bare', url: 'https://bare.example' });
    expect((await profileOf(app.client(), ava.username)).customLinks.map((l) => l.title)).toEqual(['Shop', 'Blog', 'Bare']);
  });

  it('keeps free profiles to 5 links; premium ones may add more', async () => {
    const ava = await creator();
    const asAva = await clientAs(app, ava.id);
    for (let i = 1; i <= 5; i++) await asAva.trpc.profiles.addLink.mutate({ title: `L${i}`, url: `https://l${i}.example` });
    await expectTrpcError(
      asAva.trpc.profiles.addLink.mutate({ title: 'L6', url: 'https://l6.example' }),
      'FORBIDDEN',
      'You can add up to 5 links. Upgrade to Premium for unlimited links.',
    );
    // two tabs at once cannot pass the limit either
    const bob = await creator();
    const asBob = await clientAs(app, bob.id);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => asBob.trpc.profiles.addLink.mutate({ title: `B${i}`, url: `https://b${i}.example` })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect((await linksOf(bob)).custom_links).toHaveLength(5);

    const vip = await creator('public', { isPremium: true });
    const asVip = await clientAs(app, vip.id);
    for (let i = 1; i <= 7; i++) await asVip.trpc.profiles.addLink.mutate({ title: `V${i}`, url: `https://v${i}.example` });
    expect((await linksOf(vip)).custom_links).toHaveLength(7);
  });

  it('deletes a link by position, by URL, or both when they agree', async () => {
    const ava = await creator();
    const asAva = await clientAs(app, ava.id);
    for (const n of ['a', 'b', 'c', 'd']) await asAva.trpc.profiles.addLink.mutate({ title: n, url: `https://${n}.example` });
    const titles = (links: { title: string }[]) => links.map((l) => l.title);

    expect(titles(await asAva.trpc.profiles.deleteLink.mutate({ index: 1 }))).toEqual(['a', 'c', 'd']);
    expect(titles(await asAva.trpc.profiles.deleteLink.mutate({ url: 'https://d.example' }))).toEqual(['a', 'c']);
    // position and URL disagree (the list changed in another tab): nothing is deleted
    await expectTrpcError(asAva.trpc.profiles.deleteLink.mutate({ index: 0, url: 'https://c.example' }), 'NOT_FOUND', 'That link no longer exists');
    await expectTrpcError(asAva.trpc.profiles.deleteLink.mutate({ index: 9 }), 'NOT_FOUND', 'That link no longer exists');
    expect(titles(await asAva.trpc.profiles.deleteLink.mutate({ index: 1, url: 'https://c.example' }))).toEqual(['a']);
    await expectTrpcError(asAva.trpc.profiles.deleteLink.mutate({}), 'BAD_REQUEST', 'Choose a link to delete');
    expect(titles((await linksOf(ava)).custom_links)).toEqual(['a']);
  });

  it('normalises social links, removes the emptied ones and keeps those left out', async () => {
    const ava = await creator();
    const asAva = await clientAs(app, ava.id);
    expect(
      await asAva.trpc.profiles.updateSocialLinks.mutate({
        twitter: '@avamoreau',
        instagram: 'https://www.instagram.com/ava.paints/',
        youtube: 'youtube.com/@ava',
        website: 'https://ava.example',
      }),
    ).toEqual({ twitter: 'avamoreau', instagram: 'ava.paints', youtube: 'https://youtube.com/@ava', website: 'https://ava.example' });
    expect(await asAva.trpc.profiles.updateSocialLinks.mutate({ twitter: '', website: 'ava.art' })).toEqual({
      instagram: 'ava.paints',
      youtube: 'https://youtube.com/@ava',
      website: 'https://ava.art',
    });
    await expectTrpcError(asAva.trpc.profiles.updateSocialLinks.mutate({ twitter: 'two words' }), 'BAD_REQUEST', 'Please enter a valid Twitter username');
    await expectTrpcError(asAva.trpc.profiles.updateSocialLinks.mutate({ website: 'javascript:alert(1)' }), 'BAD_REQUEST', 'Please enter a valid website URL');
    await expectTrpcError(asAva.trpc.profiles.updateSocialLinks.mutate({ youtube: 'data:text/html,x' }), 'BAD_REQUEST', 'Please enter a valid YouTube URL');
    expect((await profileOf(app.client(), ava.username)).socialLinks).toEqual({
      instagram: 'ava.paints',
      youtube: 'https://youtube.com/@ava',
      website: 'https://ava.art',
    });
  });

  it('remembers a dismissed upgrade card; a premium owner never sees it', async () => {
    const ava = await creator();
    const asAva = await clientAs(app, ava.id);
    expect((await profileOf(asAva, ava.username)).showUpgradeCard).toBe(true);
    expect(await asAva.trpc.profiles.dismissUpgradeCard.mutate()).toEqual({ dismissed: true });
    expect((await profileOf(asAva, ava.username)).showUpgradeCard).toBe(false);
    const vip = await creator('public', { isPremium: true });
    expect((await profileOf(await clientAs(app, vip.id), vip.username)).showUpgradeCard).toBe(false);
  });

  it('never offers the upgrade card to a fan on their own profile: it is for creators', async () => {
    const someone = await fan();
    const own = await profileOf(await clientAs(app, someone.id), someone.username);
    expect(own.viewer.isOwner).toBe(true);
    expect(own.showUpgradeCard).toBe(false);
  });
});

describe("owner-only procedures with another user's session", () => {
  it("act on the caller's own profile only, whatever ids are smuggled into the input; visitors are refused", async () => {
    const ava = await creator();
    const mallory = await fan();
    await app.deps.db
      .updateTable('profiles')
      .set({
        custom_links: JSON.stringify([{ title: 'Shop', url: 'https://shop.example' }]),
        social_links: JSON.stringify({ twitter: 'avamoreau' }),
      })
      .where('id', '=', ava.id)
      .execute();
    const draft = await post(ava, { status: 'draft' });
    const published = await post(ava);
    await app.deps.db.insertInto('bookmarks').values({ user_id: ava.id, post_id: published.id }).execute();
    const before = await app.deps.db.selectFrom('profiles').selectAll().where('id', '=', ava.id).executeTakeFirstOrThrow();

    const asMallory = await clientAs(app, mallory.id);
    const smuggled = { userId: ava.id, creatorId: ava.id, username: ava.username } as Record<string, string>;
    const call = asMallory.trpc.profiles;
    expect((await call.drafts.query({ ...smuggled } as never)).items).toEqual([]);
    expect((await asMallory.trpc.bookmarks.list.query({ ...smuggled } as never)).items).toEqual([]);
    await expectTrpcError(call.publishDraft.mutate({ postId: draft.id, ...smuggled }), 'NOT_FOUND', 'Post not found');
    await expectTrpcError(call.deleteLink.mutate({ index: 0, ...smuggled }), 'NOT_FOUND', 'That link no longer exists');
    await expectTrpcError(call.deleteLink.mutate({ url: 'https://shop.example', ...smuggled }), 'NOT_FOUND', 'That link no longer exists');
    await call.addLink.mutate({ title: 'Mine', url: 'https://mallory.example', ...smuggled });
    await call.updateSocialLinks.mutate({ twitter: 'mallory', ...smuggled });
    await call.dismissUpgradeCard.mutate(smuggled as never);

    // Ava's profile and draft are as they were; Mallory changed her own
    const after = await app.deps.db.selectFrom('profiles').selectAll().where('id', '=', ava.id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect((await app.deps.db.selectFrom('posts').select('status').where('id', '=', draft.id).executeTakeFirstOrThrow()).status).toBe('draft');
    const mine = await app.deps.db.selectFrom('profiles').selectAll().where('id', '=', mallory.id).executeTakeFirstOrThrow();
    expect(mine.custom_links).toEqual([{ title: 'Mine', url: 'https://mallory.example' }]);
    expect(mine.social_links).toEqual({ twitter: 'mallory' });
    expect(mine.upgrade_card_dismissed).toBe(true);
    // the owner still has their bookmarks and drafts
    const asAva = await clientAs(app, ava.id);
    expect((await asAva.trpc.bookmarks.list.query({})).items.map((p) => p.id)).toEqual([published.id]);
    expect((await asAva.trpc.profiles.drafts.query({})).items.map((p) => p.id)).toEqual([draft.id]);

    const visitor = app.client().trpc;
    await expectTrpcError(visitor.profiles.drafts.query({}), 'UNAUTHORIZED');
    await expectTrpcError(visitor.profiles.publishDraft.mutate({ postId: draft.id }), 'UNAUTHORIZED');
    await expectTrpcError(visitor.profiles.addLink.mutate({ title: 'x', url: 'https://x.example' }), 'UNAUTHORIZED');
    await expectTrpcError(visitor.profiles.deleteLink.mutate({ index: 0 }), 'UNAUTHORIZED');
    await expectTrpcError(visitor.profiles.updateSocialLinks.mutate({ twitter: 'x' }), 'UNAUTHORIZED');
    await expectTrpcError(visitor.profiles.dismissUpgradeCard.mutate(), 'UNAUTHORIZED');
    await expectTrpcError(visitor.bookmarks.list.query({}), 'UNAUTHORIZED');
  });
});
