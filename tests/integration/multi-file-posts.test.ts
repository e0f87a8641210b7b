import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unfinishedUploadName } from '../../common/upload-dtos';
import { MAX_POST_FILES, UPLOAD_POST_ID_HEADER, type UploadPostFields } from '../../common/uploads';
import { makeSubscription, makeUser, type MadeUser } from '../helpers/factories';
import { fakeExe } from '../helpers/media-fixtures';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { tusCreate, tusPatch, uploadFields, waitFor } from '../helpers/tus';

// Posts of several files (issue 29 item 2): one tus upload per file sharing a group, the post
// made when the last arrives, each file processed by the real worker, served through the one
// access rule at its own URL.

let app: TestServer;
let creator: MadeUser;
let asCreator: TestClient;

beforeAll(async () => {
  app = await startTestServer();
  creator = await makeUser(app.deps.db, { isCreator: true, username: 'multi' });
  asCreator = await clientAs(app, creator.id);
});
afterAll(async () => {
  await app?.close();
});

const photo = (background: string) => sharp({ create: { width: 640, height: 480, channels: 3, background } }).jpeg().toBuffer();

/** Uploads each file as one file of a group, in order; the post id the last finish answered with. */
async function uploadPost(client: TestClient, files: { name: string; bytes: Uint8Array }[], extra: Partial<UploadPostFields> = {}): Promise<string> {
  const group = `g${Math.random().toString(36).slice(2)}`;
  let postId: string | null = null;
  for (const [index, file] of files.entries()) {
    const created = await tusCreate(client, file.bytes.length, uploadFields(file.name, { ...extra, group: { id: group, index, count: files.length } }));
    expect(created.status).toBe(201);
    const patched = await tusPatch(client, created.headers.get('location')!, 0, file.bytes);
    expect(patched.status).toBe(204);
    postId = patched.headers.get(UPLOAD_POST_ID_HEADER);
    // the post is made by the file that completes the group, not before
    if (index < files.length - 1) expect(postId).toBeNull();
  }
  return postId!;
}

const settled = (postId: string) =>
  waitFor(async () => {
    const row = await app.deps.db.selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirstOrThrow();
    return row.status !== 'processing' ? row : null;
  }, 90_000, `post ${postId} processed`);

const fileStates = (postId: string) =>
  app.deps.db.selectFrom('post_files').select(['position', 'status', 'failure_reason']).where('post_id', '=', postId).orderBy('position').execute();

const status = async (client: TestClient, url: string) => (await client.fetch(url)).status;

describe('a post of several files', () => {
  it('publishes when every file is ready, and serves each file at its own URL', async () => {
    const postId = await uploadPost(asCreator, [
      { name: 'one.jpg', bytes: await photo('#aa3333') },
      { name: 'two.png', bytes: await sharp({ create: { width: 300, height: 300, channels: 3, background: '#33aa33' } }).png().toBuffer() },
      { name: 'three.jpg', bytes: await photo('#3333aa') },
    ], { postText: 'three of them' });
    expect(await settled(postId)).toMatchObject({ status: 'published', post_text: 'three of them' });
    expect((await fileStates(postId)).map((f) => f.status)).toEqual(['ready', 'ready', 'ready']);

    const fan = await clientAs(app, (await makeUser(app.deps.db)).id);
    const dto = await fan.trpc.posts.byId.query({ id: postId });
    expect(dto.files?.map((f) => f.url)).toEqual([`/media/${postId}/web`, `/media/${postId}/1/web`, `/media/${postId}/2/web`]);
    expect(dto.media?.url).toBe(`/media/${postId}/web`);
    const second = await fan.fetch(`/media/${postId}/1/web`);
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toMatch(/^image\//);
    expect((await sharp(Buffer.from(await second.arrayBuffer())).metadata()).width).toBe(300);
    expect(await status(fan, `/media/${postId}/3/web`)).toBe(404);
    expect(await status(fan, `/media/${postId}/20/web`)).toBe(404);

    // the feed shows it with its files, from the page's one statement
    const feed = await fan.trpc.posts.feed.query({});
    expect(feed.items.find((p) => p.id === postId)?.files).toHaveLength(3);
  });

  it('fails with the failing file\'s name and reason, keeps the rest and the text, and publishes once that file is removed', async () => {
    const postId = await uploadPost(asCreator, [
      { name: 'good.jpg', bytes: await photo('#888888') },
      { name: 'broken.jpg', bytes: fakeExe() },
      { name: 'fine.jpg', bytes: await photo('#444444') },
    ], { postText: 'keep me' });
    const failed = await settled(postId);
    expect(failed).toMatchObject({ status: 'failed', post_text: 'keep me' });
    expect(failed.failure_reason).toMatch(/^broken\.jpg: /);
    expect((await fileStates(postId)).map((f) => f.status)).toEqual(['ready', 'failed', 'ready']);

    const stranger = await clientAs(app, (await makeUser(app.deps.db, { isCreator: true })).id);
    await expectTrpcError(stranger.trpc.posts.removeFailedFile.mutate({ postId, position: 1 }), 'NOT_FOUND', 'Post not found');
    await expectTrpcError(asCreator.trpc.posts.removeFailedFile.mutate({ postId, position: 0 }), 'BAD_REQUEST');

    await asCreator.trpc.posts.removeFailedFile.mutate({ postId, position: 1 });
    expect(await settled(postId)).toMatchObject({ status: 'published', post_text: 'keep me', failure_reason: null });
    const dto = await asCreator.trpc.posts.byId.query({ id: postId });
    expect(dto.files?.map((f) => f.url)).toEqual([`/media/${postId}/web`, `/media/${postId}/2/web`]);
  });

  it("is listed under 'Your uploads' by its title and its number of files while it processes, not as its first file", async () => {
    await app.deps.queues.media.pause();
    try {
      const photos = [await photo('#aa3333'), await photo('#33aa33'), await photo('#3333aa')];
      const titled = await uploadPost(asCreator, photos.map((bytes, i) => ({ name: `photo${i + 1}.jpg`, bytes })), { title: 'Three at the lake' });
      const untitled = await uploadPost(asCreator, photos.slice(0, 2).map((bytes, i) => ({ name: `shot${i + 1}.jpg`, bytes })));
      const rows = await asCreator.trpc.uploads.unfinished.query();
      expect(rows.find((r) => r.postId === titled)).toMatchObject({ status: 'processing', title: 'Three at the lake', filename: 'photo1.jpg', fileCount: 3 });
      expect(rows.find((r) => r.postId === untitled)).toMatchObject({ title: null, filename: 'shot1.jpg', fileCount: 2 });
      expect(rows.filter((r) => [titled, untitled].includes(r.postId)).map(unfinishedUploadName)).toEqual(['shot1.jpg and 1 more', 'Three at the lake']);
    } finally {
      await app.deps.queues.media.resume();
    }
  });

  it(`refuses more than ${MAX_POST_FILES} files in one post before a byte is sent`, async () => {
    const bytes = await photo('#000000');
    const over = await tusCreate(asCreator, bytes.length, uploadFields('x.jpg', { group: { id: 'too-many', index: 0, count: MAX_POST_FILES + 1 } }));
    expect(over.status).toBe(400);
    expect(await over.text()).toContain(`A post holds at most ${MAX_POST_FILES} files`);
    const beyond = await tusCreate(asCreator, bytes.length, uploadFields('x.jpg', { group: { id: 'beyond', index: MAX_POST_FILES, count: MAX_POST_FILES } }));
    expect(beyond.status).toBe(400);
    const last = await tusCreate(asCreator, bytes.length, uploadFields('x.jpg', { group: { id: 'twenty', index: MAX_POST_FILES - 1, count: MAX_POST_FILES } }));
    expect(last.status).toBe(201);
  });

  it('gates every file of a premium post: 403 for a fan without entitlement, served to a subscriber and the owner', async () => {
    const postId = await uploadPost(asCreator, [
      { name: 'a.jpg', bytes: await photo('#123456') },
      { name: 'b.jpg', bytes: await photo('#654321') },
    ], { isPaidContent: true });
    await settled(postId);
    const fan = await clientAs(app, (await makeUser(app.deps.db)).id);
    for (const url of [`/media/${postId}/web`, `/media/${postId}/original`, `/media/${postId}/1/web`, `/media/${postId}/1/original`, `/media/${postId}/1/thumb`]) {
      expect(await status(fan, url), url).toBe(403);
      expect(await status(app.client(), url), url).toBe(403);
    }
    const dto = await fan.trpc.posts.byId.query({ id: postId });
    expect(dto.files?.map((f) => f.url)).toEqual([null, null]);
    // the preview blurs the first file only
    expect(dto.files?.map((f) => f.previewUrl)).toEqual([`/media/${postId}/preview`, null]);

    const subscriber = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: subscriber.id, creatorId: creator.id });
    const asSubscriber = await clientAs(app, subscriber.id);
    expect(await status(asSubscriber, `/media/${postId}/1/web`)).toBe(200);
    expect(await status(asCreator, `/media/${postId}/1/original`)).toBe(200);
  });
});

describe('the media vault', () => {
  it('makes a post of two vault files without uploading, refuses another creator\'s file, and keeps a shared file when its first post goes', async () => {
    const first = await uploadPost(asCreator, [
      { name: 'vault-a.jpg', bytes: await photo('#a0a0ff') },
      { name: 'vault-b.jpg', bytes: await photo('#ffa0a0') },
    ], { postText: 'first home' });
    await settled(first);
    const vault = await asCreator.trpc.vault.files.query({ kind: 'image' });
    const mine = vault.filter((f) => f.postId === first);
    expect(mine.map((f) => f.filename).sort()).toEqual(['vault-a.jpg', 'vault-b.jpg']);
    expect(mine[0]!.usedIn.map((p) => p.id)).toEqual([first]);

    const other = await makeUser(app.deps.db, { isCreator: true });
    const asOther = await clientAs(app, other.id);
    const fields = { title: '', postText: 'taken', hashtags: '', isPaidContent: false, isNsfw: false, status: 'published' as const };
    await expectTrpcError(asOther.trpc.vault.createPost.mutate({ ...fields, files: [{ postId: first, position: 0 }] }), 'FORBIDDEN', 'You can only use files from your own vault');
    // one foreign file among the creator's own refuses the whole post
    const theirs = await uploadPost(asOther, [{ name: 'x.jpg', bytes: await photo('#111111') }, { name: 'y.jpg', bytes: await photo('#222222') }]);
    await settled(theirs);
    await expectTrpcError(
      asCreator.trpc.vault.createPost.mutate({ ...fields, files: [{ postId: first, position: 0 }, { postId: theirs, position: 1 }] }),
      'FORBIDDEN',
      'You can only use files from your own vault',
    );

    const uploadsBefore = await app.deps.db.selectFrom('uploads').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const { postId } = await asCreator.trpc.vault.createPost.mutate({ ...fields, postText: 'second home', files: [{ postId: first, position: 1 }, { postId: first, position: 0 }] });
    expect(await settled(postId)).toMatchObject({ status: 'published', post_text: 'second home' });
    const uploadsAfter = await app.deps.db.selectFrom('uploads').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(uploadsAfter.n).toBe(uploadsBefore.n);
    const fan = await clientAs(app, (await makeUser(app.deps.db)).id);
    const dto = await fan.trpc.posts.byId.query({ id: postId });
    expect(dto.files).toHaveLength(2);
    const pink = await fan.fetch(`/media/${postId}/web`);
    expect(pink.status).toBe(200);
    // in the order given: the second file of the first post leads
    const { dominant } = await sharp(Buffer.from(await pink.arrayBuffer())).stats();
    expect(dominant.r).toBeGreaterThan(dominant.b);
    expect((await asCreator.trpc.vault.files.query({})).find((f) => f.postId === first && f.position === 0)?.usedIn.map((p) => p.id)).toEqual([first, postId]);

    // the first post goes; the objects the second shares stay
    await asCreator.trpc.posts.delete.mutate({ postId: first });
    await waitFor(
      () => app.deps.db.selectFrom('outbox').select('done_at').where('job_id', '=', `delete-post-files-${first}`).where('done_at', 'is not', null).executeTakeFirst(),
      30_000,
      'the first post\'s files deleted',
    );
    expect(await status(fan, `/media/${postId}/web`)).toBe(200);
    expect(await status(fan, `/media/${postId}/1/original`)).toBe(200);
  });
});
