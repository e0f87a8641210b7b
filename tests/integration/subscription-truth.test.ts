import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubscriptionStatus } from '../../common/enums';
import { makePost, makeSubscription, makeUser, type MadePost, type MadeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';

// One definition of an active subscription (domain/subscriptions/active.ts) read by every place
// that asks: the featured creators' and Explore's subscriber counts, the profile header's count
// and Subscribed state, and the access rule (premium media, the feed and the media route).
// Decided: a subscription counts while its status is 'active' and its period has not ended. A
// fan who cancels keeps the status 'active' to the end of the period they paid for, so they are
// counted and entitled until then; 'canceled' is a subscription that ended early and counts for
// nothing, whatever its period end.

let app: TestServer;
let ava: MadeUser;
let premium: MadePost;
const fans = {} as Record<'current' | 'lapsed' | 'canceledEarly' | 'expired', MadeUser>;

const MINUTE = 60_000;
const future = () => new Date(Date.now() + 30 * 24 * 60 * MINUTE);
const past = () => new Date(Date.now() - MINUTE);

beforeAll(async () => {
  app = await startTestServer();
  const db = app.deps.db;
  ava = await makeUser(db, { username: 'avatruth', isCreator: true });
  premium = await makePost(db, app.deps.storage, { creatorId: ava.id, isPremium: true, kind: 'image' });
  const setups: [keyof typeof fans, SubscriptionStatus, Date][] = [
    // paying, or cancelled and running to the end of the paid period: status stays 'active'
    ['current', 'active', future()],
    // the period ended and nothing has marked it expired yet (no renewal, no sweep)
    ['lapsed', 'active', past()],
    ['canceledEarly', 'canceled', future()],
    ['expired', 'expired', past()],
  ];
  let tierId: string | undefined;
  for (const [name, status, periodEnd] of setups) {
    fans[name] = await makeUser(db);
    ({ tierId } = await makeSubscription(db, { subscriberId: fans[name].id, creatorId: ava.id, status, periodEnd, tierId }));
  }
});
afterAll(async () => {
  await app?.close();
});

describe('what an active subscription is', () => {
  it('counts only the current subscription in the featured, Explore and profile header counts alike', async () => {
    const card = (await app.client().trpc.creators.featured.query()).find((c) => c.id === ava.id);
    expect(card?.subscriberCount).toBe(1);

    const asFan = await clientAs(app, fans.lapsed.id);
    const [exploreCard] = await asFan.trpc.explore.creators.query({ q: 'avatruth' });
    expect(exploreCard).toMatchObject({ id: ava.id, subscriberCount: 1 });

    const header = await app.client().trpc.profiles.byUsername.query({ username: 'avatruth' });
    expect(header.subscriberCount).toBe(1);
  });

  it('says Subscribed and opens premium media for the current subscriber only', async () => {
    for (const [name, fan] of Object.entries(fans)) {
      const expected = name === 'current';
      const client = await clientAs(app, fan.id);
      const header = await client.trpc.profiles.byUsername.query({ username: 'avatruth' });
      expect(header.viewer.isSubscribed, name).toBe(expected);
      const post = await client.trpc.posts.byId.query({ id: premium.id });
      expect(post.viewer.canViewMedia, name).toBe(expected);
      const media = await client.fetch(`/media/${premium.id}/original`);
      expect(media.status, name).toBe(expected ? 200 : 403);
      await media.arrayBuffer();
    }
  });
});
