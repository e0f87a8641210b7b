import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MessageAttachmentDto } from '../../common/message-dtos';
import { makeUser, type MadeUser } from '../helpers/factories';
import { EXIF_GPS_POINTER, exifIfd0Tags, fakeExe, jpegWithExif, makeVideo, mp4TopLevelBoxes } from '../helpers/media-fixtures';
import { socketPool } from '../helpers/sockets';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { attachmentSourceKey } from '../../domain/messaging/attachments';
import { requeueLostAttachmentJobs } from '../../worker/jobs/message-attachment';
import { uploadAttachment, settledAttachment } from '../helpers/attachments';

// Chat attachments end to end: raw upload over HTTP → the real worker (sharp, the posts' pipeline)
// → private storage → the authorised media route, to the two participants only.

let app: TestServer;
let a: MadeUser;
let b: MadeUser;
let asA: TestClient;
let asB: TestClient;
const sockets = socketPool();

beforeAll(async () => {
  app = await startTestServer({ workerQueues: ['media', 'transcode', 'attachments', 'attachment-transcode', 'mail'] });
  [a, b] = await Promise.all([makeUser(app.deps.db), makeUser(app.deps.db)]);
  [asA, asB] = await Promise.all([clientAs(app, a.id), clientAs(app, b.id)]);
});
afterAll(async () => {
  await app?.close();
});
afterEach(() => sockets.closeAll());


describe('chat attachments', () => {
  it('strips EXIF and GPS from a photo, tells the recipient, and serves it with Range to the two participants only', async () => {
    const photo = await jpegWithExif(1600, 1200);
    expect(exifIfd0Tags((await sharp(photo).metadata()).exif!)).toContain(EXIF_GPS_POINTER);
    const bSocket = await sockets.open(app, b);

    const up = await uploadAttachment(asA, 'IMG_0001.jpg', photo);
    expect(up.status).toBe(201);
    const attachment = up.json.attachment!;
    expect(attachment).toMatchObject({ kind: 'image', fileName: 'IMG_0001.jpg', url: null });
    const ready = new Promise<{ attachment: MessageAttachmentDto; messageId: string | null }>((resolve) =>
      bSocket.on('message:attachment', (e) => e.attachment.status === 'ready' && resolve(e)),
    );
    const sent = await asA.trpc.messages.send.mutate({ username: b.username, attachmentId: attachment.id, clientId: randomUUID() });
    expect(sent.attachment).toMatchObject({ id: attachment.id });

    const row = await settledAttachment(app, attachment.id);
    expect(row.status).toBe('ready');
    const event = await ready;
    expect(event).toMatchObject({ messageId: sent.id, attachment: { id: attachment.id, status: 'ready', url: `/media/messages/${attachment.id}` } });

    for (const client of [asA, asB]) {
      const res = await client.fetch(`/media/messages/${attachment.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toContain('private');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      // the 1080 px display size, WebP where smaller than JPEG (this picture's two flat halves: far smaller)
      expect(meta.format).toBe('webp');
      expect(meta.exif).toBeUndefined();
      // upright: the orientation was applied, not carried along
      expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([1080, 1440, 1]);
    }
    const partial = await asB.fetch(`/media/messages/${attachment.id}`, { headers: { range: 'bytes=0-99' } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toMatch(/^bytes 0-99\/\d+$/);
    expect((await partial.arrayBuffer()).byteLength).toBe(100);

    const stranger = await clientAs(app, (await makeUser(app.deps.db)).id);
    expect((await stranger.fetch(`/media/messages/${attachment.id}`)).status).toBe(403);
    expect((await app.client().fetch(`/media/messages/${attachment.id}`)).status).toBe(403);
    // the uploaded bytes, with their EXIF, are gone from storage
    expect(row.source_key).toBeNull();
  });

  it('refuses a disguised file by its bytes, and a message cannot carry it', async () => {
    const up = await uploadAttachment(asA, 'holiday.jpg', fakeExe());
    expect(up.status).toBe(201);
    const row = await settledAttachment(app, up.json.attachment!.id);
    expect(row.status).toBe('failed');
    expect(row.failure_reason).toBeTruthy();
    expect((await asA.fetch(`/media/messages/${row.id}`)).status).toBe(404);
    await expectTrpcError(
      asA.trpc.messages.send.mutate({ username: b.username, attachmentId: row.id, clientId: randomUUID() }),
      'BAD_REQUEST',
      'The attachment could not be processed',
    );
  });

  it('refuses files over 10 MB, of other kinds, without a session, and attachments of someone else', async () => {
    const big = await uploadAttachment(asA, 'big.pdf', Buffer.alloc(10 * 1024 * 1024 + 1, 1));
    expect(big).toMatchObject({ status: 413, json: { error: { message: 'File size must be less than 10MB' } } });
    expect((await uploadAttachment(asA, 'vector.svg', Buffer.from('<svg/>'))).status).toBe(415);
    expect((await uploadAttachment(asA, 'notes.txt', Buffer.from('hello'))).status).toBe(415);
    expect(await uploadAttachment(app.client(), 'a.jpg', Buffer.from('x'))).toMatchObject({ status: 401, json: { error: { message: 'Not authenticated' } } });

    const mine = await uploadAttachment(asB, 'mine.jpg', await jpegWithExif(64, 64));
    await expectTrpcError(
      asA.trpc.messages.send.mutate({ username: b.username, attachmentId: mine.json.attachment!.id, clientId: randomUUID() }),
      'BAD_REQUEST',
      'Attachment not found',
    );
    // B's own file, not sent yet: only B may see it
    await settledAttachment(app, mine.json.attachment!.id);
    expect((await asB.fetch(`/media/messages/${mine.json.attachment!.id}`)).status).toBe(200);
    expect((await asA.fetch(`/media/messages/${mine.json.attachment!.id}`)).status).toBe(403);
  });

  it('queues again an attachment whose job Redis lost', async () => {
    const id = randomUUID();
    const key = attachmentSourceKey(id, 'jpg');
    await app.deps.storage.put(key, await jpegWithExif(64, 64), 'image/jpeg');
    await app.deps.db
      .insertInto('message_attachments')
      .values({ id, owner_id: a.id, kind: 'image', original_filename: 'lost.jpg', byte_size: 1, source_key: key, updated_at: new Date(Date.now() - 60_000) })
      .execute();
    expect(await requeueLostAttachmentJobs(app.deps, 30_000)).toMatchObject({ requeued: 1 });
    expect((await settledAttachment(app, id)).status).toBe('ready');
  });

  it('makes a camera video web-playable (MP4 with its index first) for the recipient', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'msg-video-'));
    try {
      const source = await makeVideo(dir, { name: 'clip.mov', seconds: 1, width: 320, height: 240, faststart: false });
      const up = await uploadAttachment(asA, 'clip.mov', await readFile(source));
      expect(up.status).toBe(201);
      await asA.trpc.messages.send.mutate({ username: b.username, attachmentId: up.json.attachment!.id, clientId: randomUUID() });
      const row = await settledAttachment(app, up.json.attachment!.id);
      expect(row).toMatchObject({ status: 'ready', content_type: 'video/mp4' });
      const res = await asB.fetch(`/media/messages/${row.id}`);
      expect(res.status).toBe(200);
      const served = path.join(dir, 'served.mp4');
      await writeFile(served, Buffer.from(await res.arrayBuffer()));
      const boxes = await mp4TopLevelBoxes(served);
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
