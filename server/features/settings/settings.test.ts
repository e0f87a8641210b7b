import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../common/limits';
import { makePost, makeSubscription, makeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { fakeExe, jpegWithExif } from '../../../tests/helpers/media-fixtures';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';

const app = useFileServer({ emptyUsers: true });
const db = () => app.deps.db;

const info = (over: Partial<{ username: string; displayName: string; bio: string; categories: string[] }> = {}) => ({
  username: 'newname',
  displayName: 'New Name',
  bio: 'Hello there',
  categories: ['Music'],
  ...over,
});

describe('settings: personal information', () => {
  it("saves the caller's own profile only, whatever ids the input carries, and the old URL stops working", async () => {
    const [ann, bob] = [await makeUser(db()), await makeUser(db())];
    const asAnn = await clientAs(app, ann.id);
    // an id of someone else in the input is not a way in: the schema drops it, the session decides
    const result = await asAnn.trpc.settings.updatePersonalInfo.mutate({ ...info({ username: 'Ann.Renamed' }), id: bob.id, userId: bob.id } as never);
    expect(result.message).toBe('Your profile has been updated.');
    expect(result.profile).toMatchObject({ username: 'ann.renamed', displayName: 'New Name', bio: 'Hello there', categories: ['Music'] });
    const bobRow = await db().selectFrom('profiles').select(['username', 'bio']).where('id', '=', bob.id).executeTakeFirstOrThrow();
    expect(bobRow).toEqual({ username: bob.username, bio: null });

    const visitor = app.client();
    expect((await visitor.trpc.profiles.byUsername.query({ username: 'ann.renamed' })).bio).toBe('Hello there');
    await expectTrpcError(visitor.trpc.profiles.byUsername.query({ username: ann.username }), 'NOT_FOUND', 'Profile not found');
    expect(await (await clientAs(app, bob.id)).trpc.settings.personalInfo.query()).toMatchObject({ username: bob.username, bio: '' });
    await expectTrpcError(visitor.trpc.settings.personalInfo.query(), 'UNAUTHORIZED');
    await expectTrpcError(visitor.trpc.settings.updatePersonalInfo.mutate(info()), 'UNAUTHORIZED');
  });

  it('refuses a taken name in any case, reserved names, a long bio and bad categories, with field errors', async () => {
    const [ann, bob] = [await makeUser(db()), await makeUser(db())];
    const asAnn = await clientAs(app, ann.id);
    const taken = await expectTrpcError(asAnn.trpc.settings.updatePersonalInfo.mutate(info({ username: bob.username.toUpperCase() })), 'CONFLICT', 'This username is already taken');
    expect((taken.data as unknown as { validation: { fieldErrors: Record<string, string[]> } }).validation.fieldErrors.username).toEqual(['This username is already taken']);
    await expectTrpcError(asAnn.trpc.settings.updatePersonalInfo.mutate(info({ username: 'Settings' })), 'BAD_REQUEST', 'This username is not available');
    await expectTrpcError(asAnn.trpc.settings.updatePersonalInfo.mutate(info({ bio: 'x'.repeat(501) })), 'BAD_REQUEST', 'Bio must be at most 500 characters');
    await expectTrpcError(asAnn.trpc.settings.updatePersonalInfo.mutate(info({ categories: ['Art', ' art '] })), 'BAD_REQUEST', 'Each category may only be added once');
    await expectTrpcError(asAnn.trpc.settings.updatePersonalInfo.mutate(info({ categories: ['  '] })), 'BAD_REQUEST', 'Categories cannot be empty');
    await expectTrpcError(
      asAnn.trpc.settings.updatePersonalInfo.mutate(info({ categories: Array.from({ length: 11 }, (_, i) => `c${i}`) })),
      'BAD_REQUEST',
      'You can add up to 10 categories',
    );
    // trimmed, and keeping one's own name is not "taken"
    const saved = await asAnn.trpc.settings.updatePersonalInfo.mutate(info({ username: ann.username, categories: ['  Gaming  ', 'Art'] }));
    expect(saved.profile.categories).toEqual(['Gaming', 'Art']);
  });

  it('lets exactly one of two users take the same name at once; the other gets the field error', async () => {
    const [ann, bob] = [await makeUser(db()), await makeUser(db())];
    const [asAnn, asBob] = [await clientAs(app, ann.id), await clientAs(app, bob.id)];
    for (let round = 0; round < 3; round++) {
      const name = `race${round}`;
      const results = await Promise.allSettled([
        asAnn.trpc.settings.updatePersonalInfo.mutate(info({ username: name })),
        asBob.trpc.settings.updatePersonalInfo.mutate(info({ username: name })),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect((refused.reason as Error).message).toBe('This username is already taken');
      expect(await db().selectFrom('profiles').select('id').where('username', '=', name).execute()).toHaveLength(1);
    }
  });
});

describe('settings: privacy', () => {
  it('creates a missing row with the defaults and saves only the caller’s settings', async () => {
    const [ann, bob] = [await makeUser(db()), await makeUser(db())];
    await db().deleteFrom('privacy_settings').where('user_id', '=', ann.id).execute();
    const asAnn = await clientAs(app, ann.id);
    expect(await asAnn.trpc.settings.privacy.query()).toEqual({ profileVisibility: 'public', showOnlineStatus: true, allowFriendRequests: true });
    const saved = await asAnn.trpc.settings.savePrivacy.mutate({ profileVisibility: 'friends', showOnlineStatus: false, allowFriendRequests: false, userId: bob.id } as never);
    expect(saved).toEqual({ settings: { profileVisibility: 'friends', showOnlineStatus: false, allowFriendRequests: false }, message: 'Privacy settings saved successfully.' });
    expect(await (await clientAs(app, bob.id)).trpc.settings.privacy.query()).toEqual({ profileVisibility: 'public', showOnlineStatus: true, allowFriendRequests: true });
    // 'hidden' belongs to Hide Account: not offered here
    await expectTrpcError(asAnn.trpc.settings.savePrivacy.mutate({ profileVisibility: 'hidden' as never, showOnlineStatus: true, allowFriendRequests: true }), 'BAD_REQUEST');
  });

  it('private: at once, another user gets the not-found text and no media; the owner still sees everything', async () => {
    const ann = await makeUser(db(), { isCreator: true });
    const post = await makePost(db(), app.deps.storage, { creatorId: ann.id, kind: 'image' });
    const bob = await makeUser(db());
    const [asAnn, asBob] = [await clientAs(app, ann.id), await clientAs(app, bob.id)];
    expect((await asBob.fetch(`/media/${post.id}/web`)).status).toBe(200);
    expect((await asBob.trpc.posts.feed.query({})).items.map((p) => p.id)).toContain(post.id);

    await asAnn.trpc.settings.savePrivacy.mutate({ profileVisibility: 'private', showOnlineStatus: true, allowFriendRequests: true });
    await expectTrpcError(asBob.trpc.profiles.byUsername.query({ username: ann.username }), 'NOT_FOUND', 'Profile not found');
    // the media route admits nothing about a profile it may not show (404, never the bytes)
    const media = await asBob.fetch(`/media/${post.id}/web`);
    expect(media.status).toBe(404);
    expect((await asBob.trpc.posts.feed.query({})).items.map((p) => p.id)).not.toContain(post.id);
    expect((await asAnn.trpc.profiles.byUsername.query({ username: ann.username })).id).toBe(ann.id);
    expect((await asAnn.fetch(`/media/${post.id}/web`)).status).toBe(200);
  });

  it('friends: the owner and active subscribers only, never listed', async () => {
    const ann = await makeUser(db(), { isCreator: true });
    const post = await makePost(db(), app.deps.storage, { creatorId: ann.id, kind: 'image' });
    const [fan, lapsed, stranger] = [await makeUser(db()), await makeUser(db()), await makeUser(db())];
    const { tierId } = await makeSubscription(db(), { subscriberId: fan.id, creatorId: ann.id });
    await makeSubscription(db(), { subscriberId: lapsed.id, creatorId: ann.id, tierId, periodEnd: new Date(Date.now() - 60_000) });
    await (await clientAs(app, ann.id)).trpc.settings.savePrivacy.mutate({ profileVisibility: 'friends', showOnlineStatus: true, allowFriendRequests: true });

    const asFan = await clientAs(app, fan.id);
    expect((await asFan.trpc.profiles.byUsername.query({ username: ann.username })).id).toBe(ann.id);
    expect((await asFan.trpc.profiles.posts.query({ username: ann.username })).items.map((p) => p.id)).toEqual([post.id]);
    expect((await asFan.trpc.posts.feed.query({})).items.map((p) => p.id)).toContain(post.id);
    expect((await asFan.trpc.posts.byId.query({ id: post.id })).id).toBe(post.id);
    expect((await asFan.fetch(`/media/${post.id}/web`)).status).toBe(200);

    for (const other of [lapsed, stranger]) {
      const client = await clientAs(app, other.id);
      await expectTrpcError(client.trpc.profiles.byUsername.query({ username: ann.username }), 'NOT_FOUND', 'Profile not found');
      await expectTrpcError(client.trpc.posts.byId.query({ id: post.id }), 'NOT_FOUND', 'Post not found');
      expect((await client.trpc.posts.feed.query({})).items.map((p) => p.id)).not.toContain(post.id);
      expect((await client.fetch(`/media/${post.id}/web`)).status).toBe(404);
    }
    await expectTrpcError(app.client().trpc.profiles.byUsername.query({ username: ann.username }), 'NOT_FOUND', 'Profile not found');
    // not featured, not in Explore's creators, even for a subscriber
    expect((await app.client().trpc.creators.featured.query()).map((c) => c.id)).not.toContain(ann.id);
    expect((await asFan.trpc.explore.creators.query({})).map((c: { id: string }) => c.id)).not.toContain(ann.id);
  });
});

describe('settings: notifications, verification, content', () => {
  it('notifications: defaults all on (row created), saved for the caller only', async () => {
    const [ann, bob] = [await makeUser(db()), await makeUser(db())];
    await db().deleteFrom('notification_settings').where('user_id', '=', ann.id).execute();
    const asAnn = await clientAs(app, ann.id);
    expect(await asAnn.trpc.settings.notifications.query()).toEqual({ emailNotifications: true, pushNotifications: true, marketingEmails: true });
    const saved = await asAnn.trpc.settings.saveNotifications.mutate({ emailNotifications: false, pushNotifications: true, marketingEmails: false, userId: bob.id } as never);
    expect(saved.message).toBe('Notification settings saved successfully.');
    const rows = await db().selectFrom('notification_settings').select(['user_id', 'email_notifications', 'marketing_emails']).execute();
    expect(rows.find((r) => r.user_id === ann.id)).toMatchObject({ email_notifications: false, marketing_emails: false });
    expect(rows.find((r) => r.user_id === bob.id)).toMatchObject({ email_notifications: true, marketing_emails: true });
  });

  it('verification: reads the stored flags and never resets them', async () => {
    const ann = await makeUser(db());
    await db().updateTable('verification_status').set({ is_email_verified: true, is_identity_verified: true }).where('user_id', '=', ann.id).execute();
    const asAnn = await clientAs(app, ann.id);
    for (let i = 0; i < 2; i++) {
      expect(await asAnn.trpc.settings.verification.query()).toEqual({
        isEmailVerified: true, isPhoneVerified: false, isIdentityVerified: true,
        identity: { verified: true, via: 'provider', provider: 'builtin', payoutStatus: null },
      });
    }
    const bob = await makeUser(db());
    expect(await (await clientAs(app, bob.id)).trpc.settings.verification.query()).toMatchObject({ isEmailVerified: false, isPhoneVerified: false, isIdentityVerified: false });
  });

  it('content: closed comments refuse everyone but the creator, at once', async () => {
    const ann = await makeUser(db(), { isCreator: true });
    const post = await makePost(db(), null, { creatorId: ann.id, kind: null });
    const bob = await makeUser(db());
    const [asAnn, asBob] = [await clientAs(app, ann.id), await clientAs(app, bob.id)];
    expect(await asAnn.trpc.settings.content.query()).toEqual({ defaultNsfw: false, defaultPaid: false, commentsOpen: true });
    await asBob.trpc.comments.add.mutate({ postId: post.id, text: 'first' });
    const saved = await asAnn.trpc.settings.saveContent.mutate({ defaultNsfw: true, defaultPaid: true, commentsOpen: false });
    expect(saved.settings).toEqual({ defaultNsfw: true, defaultPaid: true, commentsOpen: false });
    await expectTrpcError(asBob.trpc.comments.add.mutate({ postId: post.id, text: 'second' }), 'FORBIDDEN', 'Comments are turned off for this post');
    await asAnn.trpc.comments.add.mutate({ postId: post.id, text: 'owner reply' });
    // Bob's own settings are his: closing Ann's comments changed nothing of his
    expect(await asBob.trpc.settings.content.query()).toEqual({ defaultNsfw: false, defaultPaid: false, commentsOpen: true });
  });
});

describe('avatar upload', () => {
  it('refuses visitors, foreign origins, files that are not images by their bytes, and 5 MB or more', async () => {
    const ann = await makeUser(db());
    const asAnn = await clientAs(app, ann.id);
    const post = (client: ReturnType<typeof app.client>, body: Buffer, type = 'image/jpeg') =>
      client.fetch('/avatar', { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': type } });
    expect((await post(app.client(), await jpegWithExif(64, 64))).status).toBe(401);
    const foreign = await clientAs(app, ann.id);
    foreign.setOrigin('https://evil.example');
    expect((await post(foreign, await jpegWithExif(64, 64))).status).toBe(403);

    const exe = await post(asAnn, fakeExe(), 'image/png');
    expect(exe.status).toBe(415);
    expect(((await exe.json()) as { error: { message: string } }).error.message).toBe('Invalid file type');
    const big = Buffer.concat([await jpegWithExif(64, 64), Buffer.alloc(LIMITS.avatarBytes)]);
    const tooLarge = await post(asAnn, big);
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { error: { message: string } }).error.message).toBe('File too large');
    const row = await db().selectFrom('profiles').select(['avatar_url', 'avatar_pending_id']).where('id', '=', ann.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ avatar_url: null, avatar_pending_id: null });
  });

  it('re-encodes a photo square without its EXIF and GPS, serves it, and replaces the previous one', async () => {
    const ann = await makeUser(db());
    const asAnn = await clientAs(app, ann.id);
    const upload = async (body: Buffer) => {
      const res = await asAnn.fetch('/avatar', { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': 'image/jpeg' } });
      expect(res.status).toBe(202);
      expect((await asAnn.trpc.settings.personalInfo.query()).avatarPending).toBe(true);
      await app.drain('media');
      return asAnn.trpc.settings.personalInfo.query();
    };
    const first = await upload(await jpegWithExif(900, 600));
    expect(first.avatarPending).toBe(false);
    expect(first.avatarUrl).toMatch(new RegExp(`^/avatars/${ann.id}/[0-9a-f-]{36}\\.webp$`));

    const served = await app.client().fetch(first.avatarUrl!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 512, 512]);
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    // everywhere avatars show reads the profile: the header has it too
    expect((await app.client().trpc.profiles.byUsername.query({ username: ann.username })).avatarUrl).toBe(first.avatarUrl);

    const second = await upload(await jpegWithExif(300, 700));
    expect(second.avatarUrl).not.toBe(first.avatarUrl);
    expect((await app.client().fetch(first.avatarUrl!)).status).toBe(404);
    expect((await app.client().fetch(second.avatarUrl!)).status).toBe(200);
    // the incoming bytes are never served
    expect((await app.client().fetch(`/avatars/${ann.id}/incoming-x`)).status).toBe(404);
  });

  it('a damaged image passes the signature check but the worker refuses it and says why', async () => {
    const ann = await makeUser(db());
    const asAnn = await clientAs(app, ann.id);
    const jpeg = await jpegWithExif(200, 200);
    const damaged = Buffer.concat([jpeg.subarray(0, 64), Buffer.alloc(200, 7)]);
    const res = await asAnn.fetch('/avatar', { method: 'POST', body: new Uint8Array(damaged), headers: { 'content-type': 'image/jpeg' } });
    expect(res.status).toBe(202);
    await app.drain('media');
    const after = await asAnn.trpc.settings.personalInfo.query();
    expect(after).toMatchObject({ avatarPending: false, avatarUrl: null });
    expect(after.avatarFailure).toMatch(/could not be read/);
  });
});
