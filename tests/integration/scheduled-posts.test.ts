import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock';
import { checkNewUpload } from '../../server/features/uploads/uploads.service';
import { publishScheduledPosts } from '../../worker/jobs/scheduled-posts';
import { makePost, makeSubscription, makeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';

const HOUR = 3_600_000;
const clock = fixedClock(new Date());
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ clock });
});
afterAll(async () => {
  await app?.close();
});
beforeEach(async () => {
  clock.set(new Date());
  await app.deps.db.deleteFrom('users').execute();
});

const statusOf = (id: string) => app.deps.db.selectFrom('posts').select(['status', 'published_at', 'publish_at']).where('id', '=', id).executeTakeFirstOrThrow();

async function scheduledSetup() {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const fan = await makeUser(app.deps.db);
  // a subscriber sees premium and 'friends' content: still not a scheduled post
  await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: creator.id });
  const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, status: 'scheduled', publishAt: new Date(clock.now().getTime() + HOUR), hashtags: ['soon'], text: 'Soon #soon' });
  return { creator, fan, post };
}

describe('scheduled posts before their time', () => {
  it('are refused to everyone but the owner on every URL: post page, feed, profile, bookmarks, media', async () => {
    const { creator, fan, post } = await scheduledSetup();
    const owner = await clientAs(app, creator.id);
    for (const viewer of [app.client(), await clientAs(app, fan.id)]) {
      await expectTrpcError(viewer.trpc.posts.byId.query({ id: post.id }), 'NOT_FOUND');
      expect((await viewer.trpc.posts.feed.query({})).items.map((p) => p.id)).not.toContain(post.id);
      expect((await viewer.trpc.profiles.posts.query({ username: creator.username })).items.map((p) => p.id)).not.toContain(post.id);
      for (const variant of ['original', 'web', 'thumb', 'preview']) {
        const res = await viewer.fetch(`/media/${post.id}/${variant}`);
        expect([403, 404], `${variant}: ${res.status}`).toContain(res.status);
      }
    }
    // the Scheduled tab is the caller's own: a visitor has none, a fan an empty one, never the creator's
    await expectTrpcError(app.client().trpc.profiles.scheduled.query({}), 'UNAUTHORIZED');
    const fanClient = await clientAs(app, fan.id);
    await expectTrpcError(fanClient.trpc.bookmarks.add.mutate({ postId: post.id }), 'NOT_FOUND');
    expect((await fanClient.trpc.profiles.scheduled.query({})).items).toEqual([]);

    // the owner sees it, its media and its time
    expect((await owner.trpc.posts.byId.query({ id: post.id })).status).toBe('scheduled');
    expect((await owner.fetch(`/media/${post.id}/original`)).status).toBe(200);
    const tab = await owner.trpc.profiles.scheduled.query({});
    expect(tab.items.map((p) => [p.id, p.publishAt && new Date(p.publishAt).toISOString()])).toEqual([[post.id, (await statusOf(post.id)).publish_at!.toISOString()]]);
  });

  it('are published by the job only once their time comes (the job reads the clock), then seen by all', async () => {
    const { fan, post } = await scheduledSetup();
    expect(await publishScheduledPosts(app.deps)).toEqual({ published: 0 });
    expect((await statusOf(post.id)).status).toBe('scheduled');
    clock.advance(HOUR + 1000);
    expect(await publishScheduledPosts(app.deps)).toEqual({ published: 1 });
    const row = await statusOf(post.id);
    expect(row.status).toBe('published');
    expect(row.published_at).not.toBeNull();
    const viewer = await clientAs(app, fan.id);
    expect((await viewer.trpc.posts.byId.query({ id: post.id })).status).toBe('published');
    expect((await viewer.trpc.posts.feed.query({})).items.map((p) => p.id)).toContain(post.id);
    expect((await viewer.fetch(`/media/${post.id}/original`)).status).toBe(200);
  });

  it('run twice at once, the job publishes each post once (and one missed in an outage on the next run)', async () => {
    const { creator } = await scheduledSetup();
    // more due posts: one long missed (an outage), several just due
    await makePost(app.deps.db, null, { creatorId: creator.id, status: 'scheduled', publishAt: new Date(clock.now().getTime() + 60_000), kind: null });
    await makePost(app.deps.db, null, { creatorId: creator.id, status: 'scheduled', publishAt: new Date(clock.now().getTime() + 2 * HOUR), kind: null });
    clock.advance(HOUR + 1000);
    const runs = await Promise.all([publishScheduledPosts(app.deps), publishScheduledPosts(app.deps), publishScheduledPosts(app.deps)]);
    expect(runs.reduce((n, r) => n + r.published, 0)).toBe(2);
    const rows = await app.deps.db.selectFrom('posts').select(['status']).where('creator_id', '=', creator.id).orderBy('publish_at').execute();
    expect(rows.map((r) => r.status).sort()).toEqual(['published', 'published', 'scheduled']);
    // the one still ahead goes out on a later run, once
    clock.advance(HOUR);
    const later = await Promise.all([publishScheduledPosts(app.deps), publishScheduledPosts(app.deps)]);
    expect(later.reduce((n, r) => n + r.published, 0)).toBe(1);
  });
});

describe('the owner manages a schedule', () => {
  it('reschedules within bounds, publishes now or cancels to a draft; nobody else can', async () => {
    const { creator, fan, post } = await scheduledSetup();
    const owner = await clientAs(app, creator.id);
    const other = await clientAs(app, fan.id);
    const inTwoHours = new Date(clock.now().getTime() + 2 * HOUR);

    await expectTrpcError(other.trpc.profiles.reschedule.mutate({ postId: post.id, publishAt: inTwoHours }), 'NOT_FOUND');
    await expectTrpcError(other.trpc.profiles.cancelSchedule.mutate({ postId: post.id }), 'NOT_FOUND');
    await expectTrpcError(other.trpc.profiles.publishDraft.mutate({ postId: post.id }), 'NOT_FOUND');
    expect((await statusOf(post.id)).status).toBe('scheduled');

    await expectTrpcError(owner.trpc.profiles.reschedule.mutate({ postId: post.id, publishAt: new Date(clock.now().getTime() - 1000) }), 'BAD_REQUEST', 'Choose a time in the future');
    await expectTrpcError(owner.trpc.profiles.reschedule.mutate({ postId: post.id, publishAt: new Date(clock.now().getTime() + 366 * 24 * HOUR) }), 'BAD_REQUEST', 'Choose a time at most 365 days ahead');
    await owner.trpc.profiles.reschedule.mutate({ postId: post.id, publishAt: inTwoHours });
    expect((await statusOf(post.id)).publish_at!.getTime()).toBe(inTwoHours.getTime());

    await owner.trpc.profiles.cancelSchedule.mutate({ postId: post.id });
    expect(await statusOf(post.id)).toMatchObject({ status: 'draft', publish_at: null, published_at: null });
    // a draft has no schedule to move or cancel
    await expectTrpcError(owner.trpc.profiles.cancelSchedule.mutate({ postId: post.id }), 'NOT_FOUND');

    const second = await makePost(app.deps.db, null, { creatorId: creator.id, status: 'scheduled', kind: null });
    await owner.trpc.profiles.publishDraft.mutate({ postId: second.id });
    expect((await statusOf(second.id)).status).toBe('published');
    expect((await other.trpc.posts.byId.query({ id: second.id })).id).toBe(second.id);
  });

  it('an upload asks for a schedule in the future and at most a year ahead, by the server clock', () => {
    const now = clock.now();
    const meta = (publishAt?: string) => ({ filename: 'a.png', status: 'scheduled', ...(publishAt ? { publishAt } : {}) });
    const check = (publishAt?: string) => () => checkNewUpload({ uploadLength: '10', deferLength: null, metadata: meta(publishAt), now });
    expect(check()).toThrow();
    expect(check(new Date(now.getTime() - 60_000).toISOString())).toThrow();
    expect(check(new Date(now.getTime() + 366 * 24 * HOUR).toISOString())).toThrow();
    expect(check(new Date(now.getTime() + HOUR).toISOString())()).toMatchObject({ meta: { status: 'scheduled' } });
  });
});
