import { describe, expect, it } from 'vitest';
import { makeUser } from '../helpers/factories';
import { useTestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { tusCreate, uploadFields } from '../helpers/tus';

const app = useTestServer({ workerQueues: [] });

describe('becoming a creator', () => {
  it('needs a session', async () => {
    await expectTrpcError(app.client().trpc.creators.become.mutate(), 'UNAUTHORIZED', 'You must be logged in to become a creator');
  });

  it('sets is_creator and default media settings once, then lets the user upload', async () => {
    const user = await makeUser(app.deps.db);
    const client = await clientAs(app, user.id);
    expect((await tusCreate(client, 10, uploadFields('a.jpg'))).status).toBe(403);
    await expectTrpcError(client.trpc.uploads.unfinished.query(), 'FORBIDDEN', 'Only creators can upload content');

    expect(await client.trpc.creators.become.mutate()).toEqual({ isCreator: true, becameCreator: true, message: 'You are now a creator!' });
    const profile = await app.deps.db.selectFrom('profiles').select('is_creator').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(profile.is_creator).toBe(true);
    const settings = await app.deps.db.selectFrom('media_settings').selectAll().where('creator_id', '=', user.id).executeTakeFirstOrThrow();
    expect(settings).toMatchObject({ watermark_enabled: true, watermark_text: null, watermark_position: 'center' });

    // idempotent, and saved settings survive a second call
    await client.trpc.mediaSettings.save.mutate({ watermarkEnabled: false, watermarkText: 'Mine', watermarkPosition: 'top-left' });
    expect(await client.trpc.creators.become.mutate()).toMatchObject({ becameCreator: false, message: 'You are now a creator!' });
    expect(await client.trpc.mediaSettings.get.query()).toEqual({ watermarkEnabled: false, watermarkText: 'Mine', watermarkPosition: 'top-left', markPaidPictures: false });

    // the same session may upload now: the role is read on every request
    expect((await tusCreate(client, 10, uploadFields('a.jpg'))).status).toBe(201);
    expect(await client.trpc.uploads.unfinished.query()).toEqual([]);
  });
});

describe('creator-only procedures (creatorProcedure)', () => {
  it('refuse visitors and non-creators with the words of the action', async () => {
    const visitor = app.client().trpc;
    await expectTrpcError(visitor.uploads.unfinished.query(), 'UNAUTHORIZED', 'Please sign in to upload content');
    const settings = { watermarkEnabled: true, watermarkText: null, watermarkPosition: 'center' } as const;
    await expectTrpcError(visitor.mediaSettings.save.mutate(settings), 'UNAUTHORIZED', 'You must be logged in to save settings.');
    const fan = await clientAs(app, (await makeUser(app.deps.db)).id);
    await expectTrpcError(fan.trpc.uploads.unfinished.query(), 'FORBIDDEN', 'Only creators can upload content');
    await expectTrpcError(fan.trpc.mediaSettings.save.mutate(settings), 'FORBIDDEN', 'Only creators have media settings');
    const creator = await clientAs(app, (await makeUser(app.deps.db, { isCreator: true })).id);
    expect(await creator.trpc.uploads.unfinished.query()).toEqual([]);
    expect((await creator.trpc.mediaSettings.save.mutate(settings)).settings).toEqual({ ...settings, markPaidPictures: false });
  });
});

describe('media settings', () => {
  it('need a session; anyone signed in reads the defaults, only creators save', async () => {
    await expectTrpcError(app.client().trpc.mediaSettings.get.query(), 'UNAUTHORIZED', 'You must be logged in to save settings.');
    const fan = await clientAs(app, (await makeUser(app.deps.db)).id);
    expect(await fan.trpc.mediaSettings.get.query()).toEqual({ watermarkEnabled: true, watermarkText: null, watermarkPosition: 'center', markPaidPictures: false });
    await expectTrpcError(
      fan.trpc.mediaSettings.save.mutate({ watermarkEnabled: true, watermarkText: null, watermarkPosition: 'center' }),
      'FORBIDDEN',
      'Only creators have media settings',
    );
  });

  it('save trims the text (empty means @username), limits it to 50 characters and the position to the five', async () => {
    const creator = await clientAs(app, (await makeUser(app.deps.db, { isCreator: true })).id);
    const saved = await creator.trpc.mediaSettings.save.mutate({ watermarkEnabled: true, watermarkText: '   ', watermarkPosition: 'bottom-right' });
    expect(saved).toEqual({
      settings: { watermarkEnabled: true, watermarkText: null, watermarkPosition: 'bottom-right', markPaidPictures: false },
      message: 'Media settings saved successfully.',
    });
    expect((await creator.trpc.mediaSettings.save.mutate({ watermarkEnabled: true, watermarkText: '  © Studio  ', watermarkPosition: 'center' })).settings.watermarkText).toBe('© Studio');
    const tooLong = await expectTrpcError(
      creator.trpc.mediaSettings.save.mutate({ watermarkEnabled: true, watermarkText: 'x'.repeat(51), watermarkPosition: 'center' }),
      'BAD_REQUEST',
    );
    expect(tooLong.message).toBe('Watermark text must be at most 50 characters');
    await expectTrpcError(
      creator.trpc.mediaSettings.save.mutate({ watermarkEnabled: true, watermarkText: null, watermarkPosition: 'middle' as never }),
      'BAD_REQUEST',
    );
    expect((await creator.trpc.mediaSettings.get.query()).watermarkText).toBe('© Studio');
  });
});
