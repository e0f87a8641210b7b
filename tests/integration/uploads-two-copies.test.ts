import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UPLOAD_POST_ID_HEADER } from '../../common/uploads';
import { makeSessionCookie, makeUser } from '../helpers/factories';
import { freePort, killGroup, processClient, startProcess, waitUntilReady, type AppProcess } from '../helpers/processes';
import { createTestDb, type TestDatabase } from '../helpers/test-db';
import { tusCreate, tusHead, tusPatch, TUS_HEADERS, uploadFields } from '../helpers/tus';
import { testStorageDriver, type TestClient } from '../helpers/test-server';
import { newS3Bucket } from '../helpers/s3-server';
import { createStorage, type Storage } from '../../core/storage';

// Two server processes over one database, one Redis and one shared UPLOADS_DIR, as behind a load
// balancer without sticky routing (run again by the integration-s3 project with the uploads and the
// files in one S3 bucket instead, nothing shared on disk): the chunks of one upload may land on either copy, and two
// PATCHes of one upload racing on different copies cannot both write (the tus lock is in Redis).
let database: TestDatabase;
let work: string;
let token: string;
let creatorId: string;
const copies: { process: AppProcess; url: string; client: TestClient }[] = [];
const prefix = `two-copies-${process.pid}`;
let storage: Storage;

beforeAll(async () => {
  database = await createTestDb();
  work = await mkdtemp(path.join(tmpdir(), 'two-copies-'));
  const creator = await makeUser(database.db, { isCreator: true });
  creatorId = creator.id;
  token = (await makeSessionCookie(database.db, creator.id)).token;
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    REDIS_PREFIX: prefix,
    STORAGE_DIR: path.join(work, 'storage'),
    UPLOADS_DIR: path.join(work, 'incoming'),
    OUTBOX_DIR: path.join(work, 'outbox'),
    LOST_JOB_AFTER_MS: String(3_600_000),
    ...(testStorageDriver() === 's3' ? await newS3Bucket(inject('s3Url')) : { STORAGE_DRIVER: 'disk' }),
  };
  storage = createStorage({ ...env, STORAGE_DRIVER: env.STORAGE_DRIVER as 'disk' | 's3', STORAGE_DIR: env.STORAGE_DIR! });
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    copies.push({ process: startProcess('scripts/serve.ts', { ...env, PORT: String(port) }), url, client: processClient(url, token) });
  }
  await Promise.all(copies.map((c) => waitUntilReady(c.url)));
}, 60_000);

afterAll(async () => {
  for (const c of copies) killGroup(c.process.child.pid);
  await Promise.all(copies.map((c) => c.process.exited));
  await database?.destroy();
  if (work) await rm(work, { recursive: true, force: true });
});

const postsOfCreator = () => database.db.selectFrom('posts').select('id').where('creator_id', '=', creatorId).execute();
const stored = async (postId: string) => Buffer.concat(await (await storage.get(`posts/${postId}/upload.mp4`)).stream.toArray());

/** A PATCH whose body is written piece by piece as the caller says, so two can be in flight at once. */
function streamingPatch(base: string, location: string, offset: number, length: number) {
  const target = new URL(location, base);
  let resolveDone!: (r: { status: number; postId: string | undefined }) => void;
  const done = new Promise<{ status: number; postId: string | undefined }>((r) => (resolveDone = r));
  const req = request(target, {
    method: 'PATCH',
    headers: {
      ...TUS_HEADERS,
      cookie: `session=${token}`,
      origin: base,
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
      'Content-Length': String(length),
    },
  });
  req.on('response', (res) => {
    res.resume();
    res.on('end', () => resolveDone({ status: res.statusCode ?? 0, postId: res.headers[UPLOAD_POST_ID_HEADER.toLowerCase()] as string | undefined }));
  });
  // a request ended by the server while its body is still being sent counts as refused
  req.on('error', () => resolveDone({ status: 0, postId: undefined }));
  // the headers go now: the server checks the offset before any byte of the body arrives
  req.flushHeaders();
  return { write: (piece: Uint8Array) => req.write(piece), end: () => req.end(), done };
}

describe('uploads across two server copies (no sticky routing)', () => {
  it('takes the chunks of one upload alternately on both copies and makes one post of exactly those bytes', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 123);
    const chunk = 512 * 1024;
    const created = await tusCreate(copies[0]!.client, bytes.length, uploadFields('clip.mp4'));
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;

    let offset = 0;
    let postId: string | null = null;
    for (let n = 0; offset < bytes.length; n++) {
      const copy = copies[n % 2]!;
      const res = await tusPatch(copy.client, location, offset, bytes.subarray(offset, offset + chunk));
      expect(res.status, `chunk ${n} on copy ${n % 2}`).toBe(204);
      offset = Number(res.headers.get('upload-offset'));
      postId = res.headers.get(UPLOAD_POST_ID_HEADER);
      // the other copy sees the progress at once
      const head = await tusHead(copies[(n + 1) % 2]!.client, location);
      expect(Number(head.headers.get('upload-offset'))).toBe(offset);
    }
    expect(postId).toBeTruthy();
    expect((await stored(postId!)).equals(bytes)).toBe(true);
    expect((await postsOfCreator()).map((p) => p.id)).toEqual([postId]);
  }, 60_000);

  it('lets one of two PATCHes racing on different copies win, and the stored file is wholly its bytes', async () => {
    const before = (await postsOfCreator()).length;
    const size = 4 * 1024 * 1024;
    const created = await tusCreate(copies[0]!.client, size, uploadFields('race.mp4'));
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const bodies = [Buffer.alloc(size, 0x61), Buffer.alloc(size, 0x62)];

    // both requests are announced (each copy finds offset 0), then send their bodies side by side:
    // without a lock shared by the copies both would write the file at once, both would answer 204
    // and the stored bytes would be a mix of a's and b's
    const racers = copies.map((c) => streamingPatch(c.url, location, 0, size));
    await sleep(300);
    const piece = 256 * 1024;
    for (let at = 0; at < size; at += piece) {
      racers.forEach((r, i) => r.write(bodies[i]!.subarray(at, at + piece)));
      await sleep(15);
    }
    racers.forEach((r) => r.end());
    const results = await Promise.all(racers.map((r) => r.done));

    const winners = results.filter((r) => r.status === 204);
    expect(winners, JSON.stringify(results)).toHaveLength(1);
    const loser = results.find((r) => r.status !== 204)!;
    // the loser found the upload already past its offset (or was ended): never a success
    expect([0, 409, 423, 460]).toContain(loser.status);
    const winner = results.indexOf(winners[0]!);
    const postId = winners[0]!.postId!;
    expect(postId).toBeTruthy();
    expect((await stored(postId)).equals(bodies[winner]!)).toBe(true);
    expect((await postsOfCreator()).length).toBe(before + 1);
    // and either copy now answers that the upload is complete
    for (const c of copies) expect(Number((await tusHead(c.client, location)).headers.get('upload-offset'))).toBe(size);
  }, 60_000);
});
