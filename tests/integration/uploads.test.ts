import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processPostJobId } from '../../common/jobs';
import { formatRand } from '../../common/format';
import { UNLOCK_MAX, UNLOCK_MIN } from '../../common/post-unlock';
import { POST_UNLOCK_TEXTS as UNLOCK_TEXTS } from '../../common/post-unlock-texts';
import { toUploadMetadata, UPLOAD_POST_ID_HEADER } from '../../common/uploads';
import { finishUpload, storedMetadata, UploadRefusal } from '../../server/features/uploads/uploads.service';
import { maintenanceHandlers } from '../../worker/jobs/maintenance';
import { makeUser } from '../helpers/factories';
import { fakeExe, jpegWithExif } from '../helpers/media-fixtures';
import type { TestClient, TestServer } from '../helpers/test-server';
import { startTestServer, testStorageDriver } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { encodeMetadata, TUS_HEADERS, tusCreate, tusHead, tusPatch, tusUpload, uploadFields } from '../helpers/tus';

// The tus endpoint alone: no media workers, so posts stay 'processing' and jobs stay queued.
// Its creator's posts all stay processing, so the per-creator limit of processing posts is set
// out of reach here; tests/integration/media-limits.test.ts tests that limit.
let app: TestServer;
let creator: TestClient;
let creatorId: string;
let image: Buffer;
beforeAll(async () => {
  app = await startTestServer({ workerQueues: ['mail', 'maintenance'], env: { MAX_PROCESSING_POSTS_PER_CREATOR: '1000' } });
  const user = await makeUser(app.deps.db, { isCreator: true });
  creatorId = user.id;
  creator = await clientAs(app, user.id);
  image = await jpegWithExif(400, 300);
});
afterAll(async () => {
  await app?.close();
});

/** Run again with STORAGE_DRIVER=s3 (the integration-s3 project): tus keeps uploads in the bucket then. */
const onS3 = testStorageDriver() === 's3';

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string; title: string; description?: string } }).error;

describe('who may upload', () => {
  it('refuses a visitor with 401 and the spec words, on creation and on an existing upload', async () => {
    const visitor = app.client();
    const res = await tusCreate(visitor, 100, uploadFields('a.jpg'));
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: 'UNAUTHORIZED', message: 'Please sign in to upload content' });
    const created = await tusCreate(creator, image.length, uploadFields('a.jpg'));
    const location = created.headers.get('location')!;
    expect((await tusHead(visitor, location)).status).toBe(401);
    expect((await tusPatch(visitor, location, 0, image)).status).toBe(401);
  });

  it('refuses a signed-in user who is not a creator with 403', async () => {
    const fan = await makeUser(app.deps.db);
    const res = await tusCreate(await clientAs(app, fan.id), 100, uploadFields('a.jpg'));
    expect(res.status).toBe(403);
    expect((await errorOf(res)).message).toBe('Only creators can upload content');
  });

  it('refuses a state-changing tus request from a foreign or missing Origin (CSRF)', async () => {
    const foreign = await clientAs(app, creatorId);
    foreign.setOrigin('https://evil.example');
    expect((await tusCreate(foreign, 100, uploadFields('a.jpg'))).status).toBe(403);
    foreign.setOrigin(null);
    expect((await tusCreate(foreign, 100, uploadFields('a.jpg'))).status).toBe(403);
  });

  it('lets only the uploader HEAD, PATCH or DELETE an upload', async () => {
    const created = await tusCreate(creator, image.length, uploadFields('mine.jpg'));
    const location = created.headers.get('location')!;
    const other = await makeUser(app.deps.db, { isCreator: true });
    const asOther = await clientAs(app, other.id);
    expect((await tusHead(asOther, location)).status).toBe(403);
    for (const res of [
      await tusPatch(asOther, location, 0, image.subarray(0, 10)),
      await asOther.fetch(location, { method: 'DELETE', headers: TUS_HEADERS }),
    ]) {
      expect(res.status).toBe(403);
      expect((await errorOf(res)).message).toBe('This upload belongs to someone else');
    }
    // untouched: the owner's upload is still at 0
    expect((await tusHead(creator, location)).headers.get('upload-offset')).toBe('0');
  });
});

describe('what may be uploaded', () => {
  it('refuses extensions outside the spec list with 415 Invalid file type', async () => {
    for (const name of ['virus.exe', 'notes', 'archive.zip', 'page.html', 'photo.heic']) {
      const res = await tusCreate(creator, 100, uploadFields(name));
      expect(res.status, name).toBe(415);
      expect(await errorOf(res)).toMatchObject({
        code: 'INVALID_FILE_TYPE',
        title: 'Invalid file type',
        description: 'Please upload a supported file type.',
      });
    }
  });

  it('refuses a declared size over the limit of its kind with 413 and the limit in MB', async () => {
    const MB = 1024 * 1024;
    const cases = [
      ['big.jpg', 10 * MB + 1, 10],
      ['big.mp4', 100 * MB + 1, 100],
      ['big.mp3', 50 * MB + 1, 50],
      ['big.pdf', 20 * MB + 1, 20],
      ['big.txt', 20 * MB + 1, 20],
      ['huge.mov', 2000 * MB, 100],
    ] as const;
    for (const [name, size, mb] of cases) {
      const res = await tusCreate(creator, size, uploadFields(name));
      expect(res.status, name).toBe(413);
      expect(await errorOf(res)).toMatchObject({ code: 'FILE_TOO_LARGE', title: 'File too large', description: `Maximum file size is ${mb}MB` });
    }
    // exactly at the limit is fine
    expect((await tusCreate(creator, 10 * MB, uploadFields('max.jpg'))).status).toBe(201);
  });

  it('needs a declared length, a file name and valid metadata', async () => {
    const noLength = await creator.fetch('/uploads', {
      method: 'POST',
      headers: { ...TUS_HEADERS, 'Upload-Defer-Length': '1', 'Upload-Metadata': encodeMetadata({ filename: 'a.jpg' }) },
    });
    expect(noLength.status).toBe(400);
    expect((await errorOf(noLength)).code).toBe('LENGTH_REQUIRED');
    const noName = await tusCreate(creator, 10, { status: 'published' });
    expect(noName.status).toBe(400);
    expect((await errorOf(noName)).description).toContain('filename is required');
    const badStatus = await tusCreate(creator, 10, { filename: 'a.jpg', status: 'live' });
    expect((await errorOf(badStatus)).description).toContain('status must be draft, published or scheduled');
    const badFlag = await tusCreate(creator, 10, { filename: 'a.jpg', isNsfw: 'maybe' });
    expect(badFlag.status).toBe(400);
    const tooLong = await tusCreate(creator, 10, uploadFields('a.jpg', { postText: 'x'.repeat(2001) }));
    expect((await errorOf(tooLong)).description).toContain('at most 2000');
    const empty = await tusCreate(creator, 0, uploadFields('a.jpg'));
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).description).toBe('The file is empty.');
    const garbage = await creator.fetch('/uploads', { method: 'POST', headers: { ...TUS_HEADERS, 'Upload-Length': '10', 'Upload-Metadata': 'filename !!!' } });
    expect(garbage.status).toBe(400);
  });

  it('never serves incoming files, and keeps them outside storage', async () => {
    const created = await tusCreate(creator, image.length, uploadFields('secret.jpg'));
    const location = created.headers.get('location')!;
    await tusPatch(creator, location, 0, image.subarray(0, 100));
    expect((await creator.fetch(location)).status).toBe(405);
    const id = location.split('/').pop()!;
    if (onS3) {
      // a short first part waits in `<id>.part`, never under posts/ (which is all the media route reads)
      expect((await app.deps.storage.stat(`${id}.part`))?.size).toBe(100);
      return;
    }
    expect((await stat(path.join(app.deps.config.UPLOADS_DIR, id))).size).toBe(100);
    expect(path.resolve(app.deps.config.UPLOADS_DIR).startsWith(path.resolve(app.deps.config.STORAGE_DIR))).toBe(false);
  });
});

describe('a resumable upload', () => {
  it('resumes after an interruption from the offset HEAD reports, then becomes one processing post and one job', async () => {
    const created = await tusCreate(
      creator,
      image.length,
      uploadFields('holiday.JPG', { postText: 'Sunset at the #beach', hashtags: '#travel, summer', isPaidContent: true, optimisticId: 'opt-123' }),
    );
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/uploads\/[0-9a-f]{32}$/);
    expect(created.headers.get('upload-expires')).toBeTruthy();

    // the first chunk arrives, then the connection drops in the middle of the second
    expect((await tusPatch(creator, location, 0, image.subarray(0, 1000))).status).toBe(204);
    const aborted = new AbortController();
    const slow = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(image.subarray(1000, 1500));
        setTimeout(() => aborted.abort(), 150);
      },
    });
    await creator
      .fetch(location, {
        method: 'PATCH',
        headers: { ...TUS_HEADERS, 'Upload-Offset': '1000', 'Content-Type': 'application/offset+octet-stream' },
        body: slow,
        signal: aborted.signal,
        duplex: 'half',
      } as RequestInit)
      .catch(() => null);

    // HEAD says where to continue; a PATCH at a wrong offset is refused
    const head = await tusHead(creator, location);
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(1000);
    expect(offset).toBeLessThanOrEqual(1500);
    expect(head.headers.get('upload-length')).toBe(String(image.length));
    expect((await tusPatch(creator, location, offset + 1, image.subarray(offset + 1))).status).toBe(409);

    const done = await tusPatch(creator, location, offset, image.subarray(offset));
    expect(done.status).toBe(204);
    expect(done.headers.get('upload-offset')).toBe(String(image.length));
    const postId = done.headers.get(UPLOAD_POST_ID_HEADER)!;
    expect(postId).toMatch(/^[0-9a-f-]{36}$/);

    const post = await app.deps.db.selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirstOrThrow();
    expect(post).toMatchObject({
      creator_id: creatorId,
      status: 'processing',
      target_status: 'published',
      post_text: 'Sunset at the #beach',
      is_premium: true,
      is_nsfw: false,
      media_kind: 'image',
      original_filename: 'holiday.JPG',
      optimistic_id: 'opt-123',
    });
    expect(post.hashtags.sort()).toEqual(['beach', 'summer', 'travel']);
    const files = await app.deps.db.selectFrom('media_files').selectAll().where('post_id', '=', postId).execute();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ variant: 'original', storage_key: `posts/${postId}/upload.jpg`, byte_size: String(image.length) });
    const stored = await app.deps.storage.get(`posts/${postId}/upload.jpg`);
    expect(Buffer.concat(await stored.stream.toArray()).equals(image)).toBe(true);

    const job = await app.deps.queues.media.getJob(processPostJobId(postId));
    expect(job?.data).toEqual({ postId });
    expect(job?.name).toBe('process-post');

    // the incoming file is gone; the finished upload still answers HEAD as complete
    const id = location.split('/').pop()!;
    if (onS3) await expect.poll(async () => (await app.deps.storage.exists(id)) || (await app.deps.storage.exists(`${id}.info`))).toBe(false);
    else await expect(stat(path.join(app.deps.config.UPLOADS_DIR, id))).rejects.toThrow();
    const again = await tusHead(creator, location);
    expect(again.status).toBe(200);
    expect(again.headers.get('upload-offset')).toBe(String(image.length));
    expect(again.headers.get(UPLOAD_POST_ID_HEADER)).toBe(postId);
    // a repeated last PATCH (its response was lost) is answered the same, and makes no new post
    const repeat = await tusPatch(creator, location, image.length, new Uint8Array(0));
    expect(repeat.status).toBe(204);
    expect(repeat.headers.get(UPLOAD_POST_ID_HEADER)).toBe(postId);
    const count = await app.deps.db.selectFrom('posts').select((eb) => eb.fn.countAll<string>().as('n')).where('optimistic_id', '=', 'opt-123').executeTakeFirstOrThrow();
    expect(count.n).toBe('1');
    // the media job of a video goes to the transcode queue instead
    const video = await tusUpload(creator, Buffer.from('not really a video'), uploadFields('clip.mp4'));
    expect(await app.deps.queues.transcode.getJob(processPostJobId(video.postId))).toBeTruthy();
  });

  it('continues on another server process (a restart, or another copy) from what is on disk', async () => {
    const created = await tusCreate(creator, image.length, uploadFields('restart.jpg', { optimisticId: 'restart' }));
    const location = created.headers.get('location')!;
    expect((await tusPatch(creator, location, 0, image.subarray(0, 2000))).status).toBe(204);
    const other = await startTestServer({ shareWith: app, workerQueues: [] });
    try {
      const again = other.client();
      again.cookies().set('session', creator.cookies().get('session')!);
      const head = await tusHead(again, location);
      expect(head.headers.get('upload-offset')).toBe('2000');
      const done = await tusPatch(again, location, 2000, image.subarray(2000));
      expect(done.status).toBe(204);
      expect(done.headers.get(UPLOAD_POST_ID_HEADER)).toBeTruthy();
    } finally {
      await other.close();
    }
  });

  it('accepts the whole file in the creation request (creation-with-upload) and drafts', async () => {
    const res = await creator.fetch('/uploads', {
      method: 'POST',
      headers: {
        ...TUS_HEADERS,
        'Upload-Length': String(image.length),
        'Upload-Metadata': encodeMetadata({ filename: 'draft.png', status: 'draft' }),
        'Content-Type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(image),
    });
    expect(res.status).toBe(201);
    const postId = res.headers.get(UPLOAD_POST_ID_HEADER)!;
    const post = await app.deps.db.selectFrom('posts').select(['status', 'target_status']).where('id', '=', postId).executeTakeFirstOrThrow();
    expect(post).toEqual({ status: 'processing', target_status: 'draft' });
  });

  it('makes exactly one post when the finish runs twice, even at the same time', async () => {
    const uploadId = 'f'.repeat(32);
    const file = path.join(app.deps.config.UPLOADS_DIR, uploadId);
    await mkdir(app.deps.config.UPLOADS_DIR, { recursive: true });
    await writeFile(file, image);
    const input = {
      uploadId,
      userId: creatorId,
      metadata: storedMetadata({ filename: 'twice.jpg', isPaidContent: false, isNsfw: false, status: 'published', optimisticId: 'twice' }, creatorId),
      declaredSize: image.length,
      receivedSize: image.length,
      open: () => createReadStream(file),
    };
    const results = await Promise.all([finishUpload(app.deps, input), finishUpload(app.deps, input), finishUpload(app.deps, input)]);
    const again = await finishUpload(app.deps, input);
    const ids = new Set([...results, again].map((r) => r.postId));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(again.created).toBe(false);
    const posts = await app.deps.db.selectFrom('posts').select('id').where('optimistic_id', '=', 'twice').execute();
    expect(posts).toHaveLength(1);
    // the losers' copies of the bytes were deleted: every stored file belongs to a post
    const known = new Set((await app.deps.db.selectFrom('posts').select('id').execute()).map((p) => p.id));
    for (const dir of onS3 ? [] : await readdir(path.join(app.deps.config.STORAGE_DIR, 'posts'))) {
      const files = await readdir(path.join(app.deps.config.STORAGE_DIR, 'posts', dir));
      if (files.length) expect(known.has(dir), `stray files of ${dir}`).toBe(true);
    }
    // someone else finishing the same upload id is refused
    await expect(finishUpload(app.deps, { ...input, userId: '00000000-0000-0000-0000-000000000000' })).rejects.toBeInstanceOf(UploadRefusal);
  });

  it('checks the size limit again on the bytes received', async () => {
    const input = {
      uploadId: 'e'.repeat(32),
      userId: creatorId,
      metadata: storedMetadata({ filename: 'big.jpg', isPaidContent: false, isNsfw: false, status: 'published' }, creatorId),
      declaredSize: 11 * 1024 * 1024,
      receivedSize: 11 * 1024 * 1024,
      open: () => Readable.from([]),
    };
    const refusal = await finishUpload(app.deps, input).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(UploadRefusal);
    expect(refusal).toMatchObject({ status: 413, title: 'File too large', description: 'Maximum file size is 10MB' });
  });

  // both write tus's upload folder by hand; with S3 a bucket lifecycle rule expires uploads (docs/operations.md)
  it.skipIf(onS3)('finishes on HEAD an upload whose last chunk arrived but whose finish never ran', async () => {
    // as the tus file store leaves it when the server dies right after writing the last byte
    const id = 'd'.repeat(32);
    await writeFile(path.join(app.deps.config.UPLOADS_DIR, id), fakeExe());
    await writeFile(
      path.join(app.deps.config.UPLOADS_DIR, `${id}.json`),
      JSON.stringify({
        id,
        size: fakeExe().length,
        offset: 0,
        metadata: storedMetadata({ filename: 'crash.jpg', isPaidContent: false, isNsfw: false, status: 'published', optimisticId: 'crash' }, creatorId),
        creation_date: new Date().toISOString(),
      }),
    );
    const head = await tusHead(creator, `/uploads/${id}`);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(fakeExe().length));
    const postId = head.headers.get(UPLOAD_POST_ID_HEADER);
    expect(postId).toBeTruthy();
    const post = await app.deps.db.selectFrom('posts').select('optimistic_id').where('id', '=', postId!).executeTakeFirstOrThrow();
    expect(post.optimistic_id).toBe('crash');
  });

  it.skipIf(onS3)('expires abandoned partial uploads with the maintenance job', async () => {
    const created = await tusCreate(creator, image.length, uploadFields('abandoned.jpg'));
    const location = created.headers.get('location')!;
    await tusPatch(creator, location, 0, image.subarray(0, 50));
    const id = location.split('/').pop()!;
    const fresh = await tusCreate(creator, image.length, uploadFields('fresh.jpg'));
    const freshId = fresh.headers.get('location')!.split('/').pop()!;
    // make the first one look 2 days old
    const info = path.join(app.deps.config.UPLOADS_DIR, `${id}.json`);
    const json = JSON.parse(await readFile(info, 'utf8')) as { creation_date: string };
    json.creation_date = new Date(Date.now() - 48 * 3_600_000).toISOString();
    await writeFile(info, JSON.stringify(json));
    await utimes(path.join(app.deps.config.UPLOADS_DIR, id), new Date(0), new Date(0));

    // tus itself already refuses to continue an expired upload
    expect((await tusPatch(creator, location, 50, image.subarray(50))).status).toBe(410);
    const result = await maintenanceHandlers['expire-uploads']({ data: {} } as never, { ...app.deps });
    expect(result).toMatchObject({ removed: 1 });
    const left = await readdir(app.deps.config.UPLOADS_DIR);
    expect(left.some((name) => name.startsWith(id))).toBe(false);
    expect(left).toContain(freshId);
  });
});

describe('a priced post (issue 27 item 2)', () => {
  it('keeps the unlock price and who pays from the upload, for one file and for several; refuses a price out of bounds or half a setting', async () => {
    // a creator of its own: the uploads above used up much of the shared one's creation rate
    const creator = await clientAs(app, (await makeUser(app.deps.db, { isCreator: true })).id);
    const refused = async (meta: Record<string, string>) => {
      const res = await tusCreate(creator, image.length, { ...toUploadMetadata(uploadFields('p.jpg')), ...meta });
      expect(res.status).toBe(400);
      return (await errorOf(res)).description;
    };
    expect(await refused({ unlockPrice: '9.99', unlockMode: 'everyone' })).toContain(UNLOCK_TEXTS.priceTooLow(formatRand(UNLOCK_MIN)));
    expect(await refused({ unlockPrice: '5000.01', unlockMode: 'everyone' })).toContain(UNLOCK_TEXTS.priceTooHigh(formatRand(UNLOCK_MAX)));
    expect(await refused({ unlockPrice: '12.345', unlockMode: 'everyone' })).toContain(UNLOCK_TEXTS.priceInvalid);
    expect(await refused({ unlockPrice: '50' })).toContain('unlockPrice and unlockMode go together');
    expect(await refused({ unlockPrice: '50', unlockMode: 'fans' })).toContain('unlockMode must be everyone or non_subscribers');

    const priceOf = (postId: string) => app.deps.db.selectFrom('posts').select(['unlock_price_cents', 'unlock_mode']).where('id', '=', postId).executeTakeFirstOrThrow();
    // one file, resumed in two requests: the price travels in the stored metadata to the finish
    const one = await tusUpload(creator, image, uploadFields('priced.jpg', { unlock: { price: '49.9', mode: 'non_subscribers' } }), { chunkSize: 2000 });
    expect(await priceOf(one.postId)).toEqual({ unlock_price_cents: 4990, unlock_mode: 'non_subscribers' });
    const free = await tusUpload(creator, image, uploadFields('free.jpg'));
    expect(await priceOf(free.postId)).toEqual({ unlock_price_cents: null, unlock_mode: null });
    // a post of two files: the group's metadata decides
    let groupPost: string | null = null;
    for (const index of [0, 1]) {
      const created = await tusCreate(creator, image.length, uploadFields(`set-${index}.jpg`, { unlock: { price: '5000', mode: 'everyone' }, group: { id: 'priced-set', index, count: 2 } }));
      expect(created.status).toBe(201);
      const patched = await tusPatch(creator, created.headers.get('location')!, 0, image);
      groupPost = patched.headers.get(UPLOAD_POST_ID_HEADER);
    }
    expect(await priceOf(groupPost!)).toEqual({ unlock_price_cents: 500000, unlock_mode: 'everyone' });
  });
});
