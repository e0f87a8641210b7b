import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { processPostJobId } from '../../common/jobs';
import type { ServerToClientEvents } from '../../common/socket-events';
import { makeSubscription, makeUser, type MadeUser } from '../helpers/factories';
import {
  EXIF_GPS_POINTER,
  exifIfd0Tags,
  fakeExe,
  ffprobeJson,
  jpegWithExif,
  makeAudio,
  makePdf,
  makeVideo,
  mp4TopLevelBoxes,
  regionDifference,
} from '../helpers/media-fixtures';
import { jobIn } from '../helpers/jobs';
import { socketPool, type ClientSocket } from '../helpers/sockets';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { tusUpload, uploadFields, waitFor } from '../helpers/tus';

// The whole path: tus upload over HTTP → post 'processing' → real worker (sharp, ffmpeg) on real
// Redis → variants in storage, rows and status in Postgres → events over Socket.IO → media route.

let app: TestServer;
let work: string;
let alice: MadeUser;
let asAlice: TestClient;
const sockets = socketPool();

beforeAll(async () => {
  app = await startTestServer();
  work = await mkdtemp(path.join(tmpdir(), 'media-test-'));
  alice = await makeUser(app.deps.db, { isCreator: true, username: 'alice' });
  asAlice = await clientAs(app, alice.id);
});
afterAll(async () => {
  await app?.close();
  if (work) await rm(work, { recursive: true, force: true });
});
afterEach(() => {
  sockets.closeAll();
});

const socketOf = (user: MadeUser | null) => sockets.open(app, user);

function nextEvent<E extends keyof ServerToClientEvents>(socket: ClientSocket, event: E, match: (p: Parameters<ServerToClientEvents[E]>[0]) => boolean, timeoutMs = 60_000) {
  return new Promise<Parameters<ServerToClientEvents[E]>[0]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    const listener = (payload: Parameters<ServerToClientEvents[E]>[0]) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      (socket.off as (e: string, fn: unknown) => void)(event, listener);
      resolve(payload);
    };
    (socket.on as (e: string, fn: unknown) => void)(event, listener);
  });
}

const postRow = (id: string) => app.deps.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const mediaRows = (id: string) => app.deps.db.selectFrom('media_files').selectAll().where('post_id', '=', id).orderBy('variant').execute();
const settled = (id: string, timeoutMs = 60_000) =>
  waitFor(async () => {
    const row = await postRow(id);
    return row.status !== 'processing' ? row : null;
  }, timeoutMs, `post ${id} to be processed`);

async function media(client: TestClient, postId: string, variant: string): Promise<{ status: number; body: Buffer; type: string | null }> {
  const res = await client.fetch(`/media/${postId}/${variant}`);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') };
}

/** A flat grey photo: any watermark shows as a difference from the unmarked version. */
const greyJpeg = () => sharp({ create: { width: 1200, height: 900, channels: 3, background: '#7f7f7f' } }).jpeg({ quality: 95 }).toBuffer();

describe('who hears of a new post', () => {
  it('tells only the creator, not open feeds, when the creator is hidden', async () => {
    const hidden = await makeUser(app.deps.db, { isCreator: true, visibility: 'hidden' });
    const asHidden = await clientAs(app, hidden.id);
    const fanSocket = await socketOf(await makeUser(app.deps.db));
    const creatorSocket = await socketOf(hidden);
    let fanHeard = false;
    fanSocket.on('post:published', (e) => {
      if (e.optimisticId === 'opt-hidden') fanHeard = true;
    });
    const toCreator = nextEvent(creatorSocket, 'post:published', (e) => e.optimisticId === 'opt-hidden');

    await tusUpload(asHidden, await greyJpeg(), uploadFields('quiet.jpg', { optimisticId: 'opt-hidden' }));
    await toCreator;
    // the emitter is one Redis channel: anything sent to the feed room would have arrived by now
    await new Promise((r) => setTimeout(r, 300));
    expect(fanHeard).toBe(false);
  });
});

describe('images', () => {
  it('publishes an image: upright, watermarked, without EXIF or GPS in any served variant, and tells the feed', async () => {
    const photo = await jpegWithExif(1600, 1200);
    const inputMeta = await sharp(photo).metadata();
    expect(inputMeta.orientation).toBe(6);
    expect(exifIfd0Tags(inputMeta.exif!)).toContain(EXIF_GPS_POINTER);

    const fan = await makeUser(app.deps.db);
    const fanSocket = await socketOf(fan);
    const aliceSocket = await socketOf(alice);
    // the feed's copy carries no optimisticId (only the creator needs it); the creator hears once, with it
    const toFeed = nextEvent(fanSocket, 'post:published', (e) => e.creatorId === alice.id);
    const toCreator = nextEvent(aliceSocket, 'post:published', (e) => e.optimisticId === 'opt-photo');
    const creatorHeard: unknown[] = [];
    aliceSocket.on('post:published', (e) => creatorHeard.push(e));

    const { postId } = await tusUpload(asAlice, photo, uploadFields('IMG_0001.jpg', { postText: 'Table Mountain #capetown', optimisticId: 'opt-photo' }), {
      chunkSize: 64 * 1024,
    });
    expect(await toFeed).toEqual({ postId, creatorId: alice.id });
    expect(await toCreator).toEqual({ postId, creatorId: alice.id, optimisticId: 'opt-photo' });
    // the feed's copy is sent first, so it would have reached alice's socket (in the feed room too) by now
    expect(creatorHeard).toEqual([{ postId, creatorId: alice.id, optimisticId: 'opt-photo' }]);

    const post = await postRow(postId);
    expect(post).toMatchObject({ status: 'published', media_kind: 'image', failure_reason: null });
    expect(post.published_at).toBeInstanceOf(Date);
    const rows = await mediaRows(postId);
    // stored under the run that made them (a second run cannot touch them)
    const run = /^posts\/[0-9a-f-]+\/([0-9a-f-]{36})\//.exec(rows[0]!.storage_key)?.[1];
    // the display sizes (a srcset's 320, 720 and 1080 px) as WebP, smaller than JPEG for this picture
    expect(rows.map((r) => [r.variant, r.storage_key, r.content_type, r.width, r.height])).toEqual([
      ['medium', `posts/${postId}/${run}/medium.webp`, 'image/webp', 720, 960],
      ['original', `posts/${postId}/${run}/original.jpg`, 'image/jpeg', 1200, 1600],
      ['thumb', `posts/${postId}/${run}/thumb.webp`, 'image/webp', 320, 427],
      ['web', `posts/${postId}/${run}/web.webp`, 'image/webp', 1080, 1440],
    ]);
    // the uploaded bytes (with their EXIF) are gone from storage
    expect(await app.deps.storage.exists(`posts/${postId}/upload.jpg`)).toBe(false);

    const fanClient = await clientAs(app, fan.id);
    for (const variant of ['original', 'web', 'medium', 'thumb']) {
      const served = await media(fanClient, postId, variant);
      expect(served.status, variant).toBe(200);
      const meta = await sharp(served.body).metadata();
      expect(meta.format, variant).toBe(variant === 'original' ? 'jpeg' : 'webp');
      expect(meta.exif, variant).toBeUndefined();
      expect(meta.xmp, variant).toBeUndefined();
      expect(meta.iptc, variant).toBeUndefined();
      expect(meta.orientation, variant).toBeUndefined();
      // turned upright: taller than wide
      expect(meta.height!).toBeGreaterThan(meta.width!);
    }
    const dto = await fanClient.trpc.posts.byId.query({ id: postId });
    expect(dto.media).toMatchObject({
      contentType: 'image/jpeg',
      width: 1080,
      height: 1440,
      url: `/media/${postId}/web`,
      mediumUrl: `/media/${postId}/medium`,
      thumbUrl: `/media/${postId}/thumb`,
      previewUrl: null,
    });
    expect(dto.hashtags).toEqual(['capetown']);
  });

  it('draws the watermark where the settings say, with the custom text or @username, and none when off', async () => {
    const photo = await greyJpeg();
    const upload = async (settings: { watermarkEnabled: boolean; watermarkText: string | null; watermarkPosition: 'center' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right' }) => {
      await asAlice.trpc.mediaSettings.save.mutate(settings);
      const { postId } = await tusUpload(asAlice, photo, uploadFields('grey.jpg'));
      await settled(postId);
      return (await media(asAlice, postId, 'web')).body;
    };
    const plain = await upload({ watermarkEnabled: false, watermarkText: 'ignored', watermarkPosition: 'center' });
    const corner = await upload({ watermarkEnabled: true, watermarkText: 'WATERMARK', watermarkPosition: 'bottom-right' });
    const centred = await upload({ watermarkEnabled: true, watermarkText: '', watermarkPosition: 'center' });

    const { width, height } = await sharp(plain).metadata();
    expect([width, height]).toEqual([1080, 810]);
    const bottomRight = { left: 1080 - 400, top: 810 - 120, width: 400, height: 120 };
    const topLeft = { left: 0, top: 0, width: 400, height: 120 };
    const middle = { left: 340, top: 365, width: 400, height: 80 };
    // the plain one is flat grey: no mark anywhere
    expect(await regionDifference(plain, await greyJpeg().then((b) => sharp(b).resize({ width: 1080 }).jpeg().toBuffer()), bottomRight)).toBeLessThan(2);
    expect(await regionDifference(corner, plain, bottomRight)).toBeGreaterThan(2);
    expect(await regionDifference(corner, plain, topLeft)).toBeLessThan(1);
    expect(await regionDifference(corner, plain, middle)).toBeLessThan(1);
    expect(await regionDifference(centred, plain, middle)).toBeGreaterThan(2);
    expect(await regionDifference(centred, plain, bottomRight)).toBeLessThan(1);
    // back to the defaults for the other tests
    await asAlice.trpc.mediaSettings.save.mutate({ watermarkEnabled: true, watermarkText: null, watermarkPosition: 'center' });
  });

  it('rasterises SVG (never serves it) and refuses an SVG that reaches outside itself', async () => {
    const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="300" height="200" fill="#0a0"/><circle cx="150" cy="100" r="60" fill="#fff"/></svg>');
    const { postId } = await tusUpload(asAlice, svg, uploadFields('logo.svg'));
    expect(await settled(postId)).toMatchObject({ status: 'published' });
    const rows = await mediaRows(postId);
    expect(rows.every((r) => r.content_type === 'image/jpeg' || r.content_type === 'image/webp')).toBe(true);
    const served = await media(asAlice, postId, 'original');
    expect((await sharp(served.body).metadata()).format).not.toBe('svg');

    const hostile = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd"/></svg>');
    const bad = await tusUpload(asAlice, hostile, uploadFields('evil.svg'));
    expect(await settled(bad.postId)).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('not allowed') });
  });

  it('gives a premium post a blurred preview, and the media route still gates the rest; deleting the post deletes every file', async () => {
    const photo = await greyJpeg();
    const { postId } = await tusUpload(asAlice, photo, uploadFields('vip.jpg', { isPaidContent: true }));
    await settled(postId);
    const rows = await mediaRows(postId);
    expect(rows.map((r) => r.variant)).toEqual(['medium', 'original', 'preview', 'thumb', 'web']);
    const preview = rows.find((r) => r.variant === 'preview')!;
    expect(preview.width).toBe(64);

    const stranger = await clientAs(app, (await makeUser(app.deps.db)).id);
    for (const variant of ['web', 'medium', 'thumb', 'original']) {
      expect((await media(stranger, postId, variant)).status, variant).toBe(403);
      expect((await media(app.client(), postId, variant)).status, variant).toBe(403);
    }
    expect((await media(stranger, postId, 'preview')).status).toBe(200);
    expect((await media(app.client(), postId, 'preview')).status).toBe(200);
    const dto = await stranger.trpc.posts.byId.query({ id: postId });
    expect(dto.media).toMatchObject({ url: null, previewUrl: `/media/${postId}/preview` });

    const subscriber = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: subscriber.id, creatorId: alice.id });
    expect((await media(await clientAs(app, subscriber.id), postId, 'web')).status).toBe(200);
    expect((await media(await clientAs(app, subscriber.id), postId, 'medium')).status).toBe(200);
    expect((await media(asAlice, postId, 'web')).status).toBe(200);

    for (const row of rows) expect(await app.deps.storage.exists(row.storage_key), row.variant).toBe(true);
    await asAlice.trpc.posts.delete.mutate({ postId });
    await app.drain('maintenance');
    for (const row of rows) expect(await app.deps.storage.exists(row.storage_key), row.variant).toBe(false);
  });

  it('keeps a draft a draft and tells only the creator', async () => {
    const aliceSocket = await socketOf(alice);
    const ready = nextEvent(aliceSocket, 'post:draft-ready', (e) => e.optimisticId === 'opt-draft');
    const { postId } = await tusUpload(asAlice, await greyJpeg(), uploadFields('draft.jpg', { status: 'draft', optimisticId: 'opt-draft' }));
    expect(await ready).toEqual({ postId, optimisticId: 'opt-draft' });
    const post = await postRow(postId);
    expect(post).toMatchObject({ status: 'draft', published_at: null });
  });
});

describe('video, audio and documents', () => {
  it('transcodes a video to H.264/AAC MP4 with faststart, burns in the watermark, and extracts a poster and the duration', async () => {
    const source = await makeVideo(work, { seconds: 3, width: 640, height: 360, faststart: false });
    expect((await mp4TopLevelBoxes(source)).indexOf('moov')).toBeGreaterThan((await mp4TopLevelBoxes(source)).indexOf('mdat'));
    const fanSocket = await socketOf(await makeUser(app.deps.db));
    const published = nextEvent(fanSocket, 'post:published', (e) => e.creatorId === alice.id);
    const { postId } = await tusUpload(asAlice, await readFile(source), uploadFields('clip.mp4', { optimisticId: 'opt-video' }), { chunkSize: 256 * 1024 });
    await published;

    const rows = await mediaRows(postId);
    expect(rows.map((r) => [r.variant, r.content_type, r.width, r.height])).toEqual([
      ['original', 'video/mp4', 640, 360],
      ['poster', 'image/webp', 640, 360],
    ]);
    const original = rows.find((r) => r.variant === 'original')!;
    expect(Number(original.duration_seconds)).toBeGreaterThan(2.9);
    expect(Number(original.duration_seconds)).toBeLessThan(3.2);

    const served = await media(asAlice, postId, 'original');
    expect(served.type).toBe('video/mp4');
    const file = path.join(work, 'served.mp4');
    await writeFile(file, served.body);
    const probe = await ffprobeJson(file);
    const video = probe.streams.find((s) => s.codec_type === 'video')!;
    const audio = probe.streams.find((s) => s.codec_type === 'audio')!;
    expect(video).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 640, height: 360 });
    expect(audio.codec_name).toBe('aac');
    const boxes = await mp4TopLevelBoxes(file);
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));

    const poster = await media(asAlice, postId, 'poster');
    expect((await sharp(poster.body).metadata()).format).toBe('webp');
    const dto = await asAlice.trpc.posts.byId.query({ id: postId });
    expect(dto.media).toMatchObject({ contentType: 'video/mp4', url: `/media/${postId}/original`, posterUrl: `/media/${postId}/poster` });
    expect(dto.media!.durationSeconds).toBeGreaterThan(2.9);
    const job = await app.deps.queues.transcode.getJob(processPostJobId(postId));
    expect(job?.progress).toBe(100);

    // the burnt-in watermark (@alice, centered): the middle of the poster differs from a plain frame
    const plainFrame = path.join(work, 'plain.jpg');
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { resolveFfmpegPath } = await import('../../worker/media/ffmpeg-path');
    await promisify(execFile)(resolveFfmpegPath(), ['-y', '-v', 'error', '-ss', '1', '-i', source, '-frames:v', '1', plainFrame]);
    const middle = { left: 240, top: 160, width: 160, height: 40 };
    expect(await regionDifference(poster.body, await readFile(plainFrame), middle)).toBeGreaterThan(8);
  });

  it('normalises audio to AAC in M4A with its duration', async () => {
    const wav = await makeAudio(work, 'tone.wav', 2);
    const { postId } = await tusUpload(asAlice, await readFile(wav), uploadFields('tone.wav', { isPaidContent: true }));
    expect(await settled(postId)).toMatchObject({ status: 'published', media_kind: 'audio' });
    const rows = await mediaRows(postId);
    expect(rows.map((r) => [r.variant, r.content_type])).toEqual([
      ['original', 'audio/mp4'],
      ['preview', 'image/jpeg'],
    ]);
    expect(Number(rows[0]!.duration_seconds)).toBeCloseTo(2, 0);
    const file = path.join(work, 'served.m4a');
    await writeFile(file, (await media(asAlice, postId, 'original')).body);
    const probe = await ffprobeJson(file);
    expect(probe.streams.map((s) => s.codec_name)).toEqual(['aac']);
  });

  it('keeps a PDF byte for byte', async () => {
    const pdf = makePdf();
    const { postId } = await tusUpload(asAlice, pdf, uploadFields('guide.pdf'));
    expect(await settled(postId)).toMatchObject({ status: 'published', media_kind: 'pdf' });
    const served = await media(asAlice, postId, 'original');
    expect(served.type).toBe('application/pdf');
    expect(served.body.equals(pdf)).toBe(true);
  });

  it('keeps a UTF-8 text document', async () => {
    const { postId } = await tusUpload(asAlice, Buffer.from('Notes — ünïcode ✓\n'), uploadFields('notes.txt'));
    expect(await settled(postId)).toMatchObject({ status: 'published', media_kind: 'document' });
    expect((await mediaRows(postId))[0]!.content_type).toBe('text/plain; charset=utf-8');
  });
});

describe('uploads that cannot become posts', () => {
  it('fails an executable renamed .jpg with a clear reason, once (no retry), and tells the creator', async () => {
    const aliceSocket = await socketOf(alice);
    const failed = nextEvent(aliceSocket, 'post:failed', (e) => e.optimisticId === 'opt-exe');
    const { postId } = await tusUpload(asAlice, fakeExe(), uploadFields('holiday.jpg', { optimisticId: 'opt-exe' }));
    const reason = 'This file is not a valid JPG file (its content is EXE).';
    expect(await failed).toEqual({ postId, optimisticId: 'opt-exe', reason });
    expect(await postRow(postId)).toMatchObject({ status: 'failed', failure_reason: reason, published_at: null });
    // the post is marked before the job is: wait for BullMQ to file it as failed
    const job = await jobIn(app.deps.queues.media, processPostJobId(postId), 'failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe(reason);
    // invisible to others, listed for the creator with its reason
    await expectTrpcError(app.client().trpc.posts.byId.query({ id: postId }), 'NOT_FOUND');
    const unfinished = await asAlice.trpc.uploads.unfinished.query();
    expect(unfinished.find((u) => u.postId === postId)).toMatchObject({ status: 'failed', failureReason: reason, filename: 'holiday.jpg' });

    // retry: processed again (and fails again, the bytes being what they are)
    const again = nextEvent(aliceSocket, 'post:failed', (e) => e.postId === postId);
    expect(await asAlice.trpc.posts.retryProcessing.mutate({ postId })).toEqual({ postId, status: 'processing' });
    expect((await again).reason).toBe(reason);
    const stranger = await clientAs(app, (await makeUser(app.deps.db, { isCreator: true })).id);
    await expectTrpcError(stranger.trpc.posts.retryProcessing.mutate({ postId }), 'NOT_FOUND', 'Post not found');

    // and the creator can delete it, files included
    await asAlice.trpc.posts.delete.mutate({ postId });
    await app.drain('maintenance');
    expect(await app.deps.storage.exists(`posts/${postId}/upload.jpg`)).toBe(false);
  });

  it('fails a truncated video and an empty file', async () => {
    const video = await readFile(await makeVideo(work, { name: 'cut.mp4', seconds: 2, width: 320, height: 240 }));
    const { postId } = await tusUpload(asAlice, video.subarray(0, Math.floor(video.length / 2)), uploadFields('cut.mp4'));
    expect(await settled(postId)).toMatchObject({ status: 'failed', failure_reason: 'The video could not be read: the file is damaged or incomplete.' });

    // an empty file cannot be uploaded (400), so put one where an upload would be
    const empty = await app.deps.db
      .insertInto('posts')
      .values({ creator_id: alice.id, status: 'processing', target_status: 'published', media_kind: 'image', original_filename: 'empty.png' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app.deps.storage.put(`posts/${empty.id}/upload.png`, Buffer.alloc(0), 'application/octet-stream');
    await app.deps.db
      .insertInto('media_files')
      .values({ post_id: empty.id, variant: 'original', storage_key: `posts/${empty.id}/upload.png`, content_type: 'application/octet-stream', byte_size: 0 })
      .execute();
    await app.deps.queues.media.add('process-post', { postId: empty.id }, { jobId: processPostJobId(empty.id) });
    expect(await settled(empty.id)).toMatchObject({ status: 'failed', failure_reason: 'The file is empty.' });
  });

  it('a duplicate job for a processed post is skipped', async () => {
    const { postId } = await tusUpload(asAlice, await greyJpeg(), uploadFields('once.jpg'));
    await settled(postId);
    const before = await mediaRows(postId);
    await app.deps.queues.media.add('process-post', { postId }, { jobId: `${processPostJobId(postId)}-dup` });
    await app.drain('media');
    const dup = await app.deps.queues.media.getJob(`${processPostJobId(postId)}-dup`);
    expect(dup?.returnvalue).toEqual({ skipped: 'done' });
    expect((await mediaRows(postId)).map((r) => r.id)).toEqual(before.map((r) => r.id));
  });
});
