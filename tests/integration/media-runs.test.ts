import type { Job } from 'bullmq';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { attachmentPreviewKey } from '../../domain/messaging/attachments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageAttachmentJobId, processPostJobId } from '../../common/jobs';
import type { MessageAttachmentDto } from '../../common/message-dtos';
import { makeUser } from '../helpers/factories';
import { jpegWithExif, makeVideo } from '../helpers/media-fixtures';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { tusUpload, uploadFields, waitFor } from '../helpers/tus';
import { requeueLostJobs } from '../../worker/jobs/lost-jobs';
import { processPost } from '../../worker/jobs/media';
import { processMessageAttachment } from '../../worker/jobs/message-attachment';
import { processAvatar } from '../../worker/jobs/avatar';

// Two runs of one item at once (issue 24 item 1): a job queued again by the lost-job sweep or by
// BullMQ's stall check while the first run still works (a Redis restart or stall). The handlers
// are called here as two workers would call them; no media worker runs in the server.
let app: TestServer;
let asCreator: TestClient;
let creatorId: string;
let video: Buffer;
let work: string;

beforeAll(async () => {
  app = await startTestServer({ workerQueues: ['mail'] });
  const creator = await makeUser(app.deps.db, { isCreator: true });
  creatorId = creator.id;
  asCreator = await clientAs(app, creator.id);
  work = await mkdtemp(path.join(tmpdir(), 'media-runs-'));
  video = await readFile(await makeVideo(work, { seconds: 3, width: 640, height: 360 }));
}, 120_000);
afterAll(async () => {
  await app?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** A video post uploaded and 'processing', its job waiting in `transcode` (no worker takes it). */
async function processingPost(): Promise<{ postId: string; job: Job }> {
  const { postId } = await tusUpload(asCreator, video, uploadFields('clip.mp4'));
  const job = await app.deps.queues.transcode.getJob(processPostJobId(postId));
  if (!job) throw new Error('no job was queued');
  return { postId, job };
}

const postRow = (postId: string) => app.deps.db.selectFrom('posts').selectAll().where('id', '=', postId).executeTakeFirstOrThrow();

/**
 * The post is published and every variant it lists is in storage and served, byte for byte the
 * file its row names; nothing but the winning run's files is left in the post's folder.
 */
async function expectPublishedIntact(postId: string) {
  expect((await postRow(postId)).status).toBe('published');
  const files = await app.deps.db.selectFrom('media_files').selectAll().where('post_id', '=', postId).orderBy('variant').execute();
  expect(files.map((f) => f.variant)).toEqual(['original', 'poster']);
  const runDirs = new Set<string>();
  for (const file of files) {
    const stored = Buffer.concat(await (await app.deps.storage.get(file.storage_key)).stream.toArray());
    expect(stored.length).toBe(Number(file.byte_size));
    const res = await asCreator.fetch(`/media/${postId}/${file.variant}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(stored)).toBe(true);
    runDirs.add(path.dirname(file.storage_key));
  }
  // both variants of one run; no file of another run, no upload left
  expect(runDirs.size).toBe(1);
  expect(await filesUnder(`posts/${postId}`)).toEqual(files.map((f) => f.storage_key).sort());
  expect(await postRow(postId)).toMatchObject({ processing_run: null, processing_keys: [] });
}

/** Every stored file under `prefix` (the disk driver), as storage keys. */
async function filesUnder(prefix: string): Promise<string[]> {
  const root = app.deps.config.STORAGE_DIR;
  const entries = await readdir(path.join(root, prefix), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

describe('two runs of one post', () => {
  it('at once: the second waits for the first and skips; the published video and poster are intact', async () => {
    const { postId, job } = await processingPost();
    const results = await Promise.all([processPost(job, app.deps), processPost(job, app.deps)]);
    expect(results).toEqual(expect.arrayContaining([{ status: 'published', files: ['original', 'poster'] }, { skipped: 'done' }]));
    await expectPublishedIntact(postId);
  }, 120_000);

  it('when the first run looked dead (stale heartbeat) but was not: both transcode, the run holding the post publishes, the other deletes only its own files', async () => {
    const { postId, job } = await processingPost();
    // the first run's worker renews nothing during the test (a lease of an hour), then its
    // heartbeat is made stale: as after a stall of the worker's PostgreSQL connection
    const stalled = { ...app.deps, config: { ...app.deps.config, MEDIA_LOCK_DURATION_MS: 3_600_000 } };
    const first = processPost(job, stalled);
    const firstRun = (await waitFor(async () => (await postRow(postId)).processing_run, 20_000, 'the first run to hold the post'))!;
    await sql`update posts set processing_heartbeat_at = now() - interval '1 hour' where id = ${postId}`.execute(app.deps.db);
    const second = processPost(job, app.deps);
    await waitFor(async () => (await postRow(postId)).processing_run !== firstRun, 20_000, 'the second run to take the post over');
    // the first run lost the post to the second: it may not publish (the second may have deleted its files)
    expect(await Promise.all([first, second])).toEqual([{ skipped: 'gone' }, { status: 'published', files: ['original', 'poster'] }]);
    await expectPublishedIntact(postId);
  }, 120_000);
});

describe('a run taking over from one that died', () => {
  it("deletes the files the dead run had started to write, and publishes its own", async () => {
    const { postId, job } = await processingPost();
    const dead = randomUUID();
    const leftover = `posts/${postId}/${dead}/original.mp4`;
    await app.deps.storage.put(leftover, Buffer.from('half a video'), 'video/mp4');
    await sql`update posts set processing_run = ${dead}, processing_heartbeat_at = now() - interval '1 hour',
        processing_keys = ${[leftover]} where id = ${postId}`.execute(app.deps.db);
    expect(await processPost(job, app.deps)).toEqual({ status: 'published', files: ['original', 'poster'] });
    expect(await app.deps.storage.exists(leftover)).toBe(false);
    await expectPublishedIntact(postId);
  }, 120_000);
});

describe('the lost-job sweep', () => {
  it('leaves a post whose run is alive (fresh heartbeat) although Redis lost its job, and queues it again once the heartbeat is stale', async () => {
    const { postId, job } = await processingPost();
    await job.remove();
    const setRun = (heartbeat: string) =>
      sql`update posts set updated_at = now() - interval '1 hour', processing_run = ${randomUUID()},
          processing_heartbeat_at = now() - ${heartbeat}::interval where id = ${postId}`.execute(app.deps.db);
    await setRun('1 second');
    expect(await requeueLostJobs(app.deps, 30_000)).toMatchObject({ requeued: 0 });
    expect(await app.deps.queues.transcode.getJobState(processPostJobId(postId))).toBe('unknown');

    await setRun('1 hour');
    expect(await requeueLostJobs(app.deps, 30_000)).toMatchObject({ requeued: 1 });
    expect(await app.deps.queues.transcode.getJobState(processPostJobId(postId))).toBe('waiting');
  });
});

describe('two runs of one chat attachment, and of one avatar', () => {
  it('at once: the attachment is served intact', async () => {
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const res = await asFan.fetch(`/message-attachments?name=photo.jpg`, {
      method: 'POST',
      body: new Uint8Array(await jpegWithExif(640, 480)),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(201);
    const { attachment } = (await res.json()) as { attachment: MessageAttachmentDto };
    const job = await app.deps.queues.attachments.getJob(messageAttachmentJobId(attachment.id));
    const results = await Promise.all([processMessageAttachment(job!, app.deps), processMessageAttachment(job!, app.deps)]);
    expect(results).toEqual(expect.arrayContaining([{ status: 'ready' }, { skipped: 'done' }]));
    const row = await app.deps.db.selectFrom('message_attachments').selectAll().where('id', '=', attachment.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('ready');
    const stored = Buffer.concat(await (await app.deps.storage.get(row.storage_key!)).stream.toArray());
    const served = await asFan.fetch(`/media/messages/${attachment.id}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(stored)).toBe(true);
    // only the winning run's file and its preview
    expect((await filesUnder(`messages/${attachment.id}`)).sort()).toEqual([row.storage_key!, attachmentPreviewKey(row.storage_key!)].sort());
  });

  it('at once: the avatar one run made stays in storage', async () => {
    const uploadId = randomUUID();
    const incoming = `avatars/${creatorId}/incoming-${uploadId}`;
    await app.deps.storage.put(incoming, await jpegWithExif(400, 300), 'image/jpeg');
    await app.deps.db.updateTable('profiles').set({ avatar_pending_id: uploadId }).where('id', '=', creatorId).execute();
    const job = { data: { userId: creatorId, uploadId }, attemptsMade: 0, opts: { attempts: 5 } } as unknown as Parameters<typeof processAvatar>[0];
    await Promise.all([processAvatar(job, app.deps), processAvatar(job, app.deps)]);
    const profile = await app.deps.db.selectFrom('profiles').select(['avatar_url']).where('id', '=', creatorId).executeTakeFirstOrThrow();
    expect(profile.avatar_url).toBe(`/avatars/${creatorId}/${uploadId}.webp`);
    expect(await app.deps.storage.exists(profile.avatar_url!.slice(1))).toBe(true);
  });
});
