import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { Agent, request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { processPostJobId } from '../../common/jobs';
import { makeSessionCookie, makeUser } from '../helpers/factories';
import { makeVideo } from '../helpers/media-fixtures';
import {
  descendantsOf,
  freePort,
  isRunning,
  killGroup,
  processClient,
  processesMatching,
  startProcess,
  waitUntilReady,
  type AppProcess,
} from '../helpers/processes';
import { createTestDb, type TestDatabase } from '../helpers/test-db';
import { tusCreate, tusHead, tusPatch, tusUpload, TUS_HEADERS, uploadFields, waitFor } from '../helpers/tus';
import { UPLOAD_POST_ID_HEADER } from '../../common/uploads';
import type { ServerEntry } from '../../scripts/build-server';

// SIGTERM as a supervisor sends it (Docker, Kubernetes, systemd), to the server with its workers
// (`npm start`), and a hard kill of a worker: nothing in flight is dropped, no ffmpeg is left
// running, no temp folder is left behind.
let database: TestDatabase;
let work: string;
let video: Buffer;
let sessionToken: string;
const prefix = `shutdown-${process.pid}`;
const started: AppProcess[] = [];
let connection: Redis;
let transcode: Queue;

beforeAll(async () => {
  database = await createTestDb();
  work = await mkdtemp(path.join(tmpdir(), 'shutdown-'));
  const creator = await makeUser(database.db, { isCreator: true });
  sessionToken = (await makeSessionCookie(database.db, creator.id)).token;
  // long enough that the job is surely still running when the signal comes
  video = await readFile(await makeVideo(work, { seconds: 12, width: 1280, height: 720 }));
  connection = new Redis({ maxRetriesPerRequest: null });
  transcode = new Queue('transcode', { connection, prefix });
}, 60_000);
afterEach(() => {
  for (const p of started.splice(0)) killGroup(p.child.pid);
});
afterAll(async () => {
  await transcode?.close();
  const keys = await connection.keys(`${prefix}:*`);
  if (keys.length) await connection.del(...keys);
  connection?.disconnect();
  await database?.destroy();
  if (work) await rm(work, { recursive: true, force: true });
});

function settings(extra: Record<string, string> = {}) {
  return {
    DATABASE_URL: database.url,
    REDIS_PREFIX: prefix,
    STORAGE_DIR: path.join(work, 'storage'),
    UPLOADS_DIR: path.join(work, 'incoming'),
    OUTBOX_DIR: path.join(work, 'outbox'),
    MEDIA_LOCK_DURATION_MS: '5000',
    MEDIA_STALLED_INTERVAL_MS: '1000',
    // each test's job is the only one running: no sweep brings back a job another test left
    LOST_JOB_AFTER_MS: String(3_600_000),
    ...extra,
  };
}

function start(script: ServerEntry, env: Record<string, string>) {
  const p = startProcess(script, env);
  started.push(p);
  return p;
}

async function runningJob(postId: string) {
  return waitFor(
    async () => {
      const job = await transcode.getJob(processPostJobId(postId));
      return job && (await job.getState()) === 'active' && typeof job.progress === 'number' && job.progress >= 5 && job.progress < 80 ? job : null;
    },
    60_000,
    'the video job to be under way',
  );
}

/** The ffmpeg of a worker process's job (its temp folder is in the arguments) and that folder. */
async function ffmpegOf(workerPid: number) {
  const marker = `media-w${workerPid}-`;
  const ffmpeg = await waitFor(async () => processesMatching(marker).filter((p) => /ffmpeg/.test(p.args.split(' ')[0]!)), 10_000, 'ffmpeg to run');
  const dirs = (await readdir(tmpdir())).filter((name) => name.startsWith(marker)).map((name) => path.join(tmpdir(), name));
  expect(dirs).toHaveLength(1);
  return { pids: ffmpeg.map((p) => p.pid), dir: dirs[0]! };
}

const body = (res: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    res.on('data', (d) => (text += d));
    res.on('end', () => resolve(text));
  });

describe('SIGTERM to the server with its workers (npm start)', () => {
  it('finishes in-flight requests, closes keep-alive connections, hands the video job back, kills ffmpeg, removes the temp folder and exits 0', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const graceMs = 10_000;
    const server = start('scripts/serve.ts', settings({ PORT: String(port), APP_URL: url, RUN_WORKER: 'true', SHUTDOWN_GRACE_MS: String(graceMs), WORKER_SHUTDOWN_GRACE_MS: '500' }));
    await waitUntilReady(url);
    const client = processClient(url, sessionToken);
    const { postId } = await tusUpload(client, video, uploadFields('stopped.mp4'), { chunkSize: 8 * 1024 * 1024 });
    await runningJob(postId);
    const { pids, dir } = await ffmpegOf(server.child.pid!);

    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const send = (method: string, pathname: string, headers: Record<string, string>) =>
      request(`${url}${pathname}`, { method, agent, headers: { cookie: `session=${sessionToken}`, origin: url, ...headers } });
    // a keep-alive connection left idle by the last answer
    let idleClosedAt = 0;
    const idle = await new Promise<IncomingMessage>((resolve) =>
      send('GET', '/healthz', {})
        .on('socket', (socket) => socket.once('close', () => (idleClosedAt = Date.now())))
        .on('response', resolve)
        .end(),
    );
    await body(idle);
    // a request in flight: a tus PATCH whose body is still arriving when the signal comes
    const chunk = Buffer.alloc(256 * 1024, 7);
    const created = await tusCreate(client, chunk.length * 2, uploadFields('in-flight.mp4'));
    const patch = send('PATCH', created.headers.get('location')!, {
      ...TUS_HEADERS,
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
      'Content-Length': String(chunk.length),
    });
    const answered = new Promise<IncomingMessage>((resolve) => patch.on('response', resolve));
    patch.write(chunk.subarray(0, 1000));
    await new Promise((r) => setTimeout(r, 200));

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    patch.end(chunk.subarray(1000));
    const patched = await answered;
    await body(patched);
    const code = await server.exited;
    const exitedAt = Date.now();
    agent.destroy();

    expect(code).toBe(0);
    expect(exitedAt - signalledAt).toBeLessThan(graceMs);
    // the request in flight was answered in full, and told the client not to reuse the connection
    expect(patched.statusCode).toBe(204);
    expect(patched.headers['upload-offset']).toBe(String(chunk.length));
    expect(patched.headers.connection).toBe('close');
    // the idle keep-alive connection was closed by the server, not left to hold the exit up
    expect(idleClosedAt).toBeGreaterThan(0);
    expect(idleClosedAt).toBeLessThanOrEqual(exitedAt);
    // the job is back in the queue, no attempt used up; ffmpeg and the temp folder are gone
    const job = (await transcode.getJob(processPostJobId(postId)))!;
    expect(await job.getState()).toBe('waiting');
    expect(job.attemptsMade).toBe(0);
    expect(pids.filter(isRunning)).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  }, 120_000);
});

describe('SIGTERM while an upload chunk is still arriving', () => {
  it('stops reading the chunk, answers with the offset it reached, exits 0 within the grace, and the client resumes on another copy', async () => {
    const graceMs = 10_000;
    const [port, otherPort] = [await freePort(), await freePort()];
    const url = `http://127.0.0.1:${port}`;
    const otherUrl = `http://127.0.0.1:${otherPort}`;
    // two copies sharing the database, Redis and the upload folder, as behind a load balancer
    const stopping = start('scripts/serve.ts', settings({ PORT: String(port), APP_URL: url, RUN_WORKER: 'false', SHUTDOWN_GRACE_MS: String(graceMs) }));
    start('scripts/serve.ts', settings({ PORT: String(otherPort), APP_URL: url, RUN_WORKER: 'false' }));
    await Promise.all([waitUntilReady(url, 60_000), waitUntilReady(otherUrl, 60_000)]);
    const client = processClient(url, sessionToken);
    const file = Buffer.alloc(1024 * 1024, 3);
    file.fill(9, 300 * 1024);
    const created = await tusCreate(client, file.length, uploadFields('cut-short.mp4'));
    const location = created.headers.get('location')!;

    // one PATCH of the whole file, of which only the first 300 kB are sent: a slow client
    const patch = request(`${url}${location}`, {
      method: 'PATCH',
      headers: {
        cookie: `session=${sessionToken}`,
        origin: url,
        ...TUS_HEADERS,
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(file.length),
      },
    });
    patch.on('error', () => {});
    const answered = new Promise<IncomingMessage>((resolve) => patch.on('response', resolve));
    patch.write(file.subarray(0, 300 * 1024));
    // (read from the folder: a HEAD would ask the PATCH to let go of the upload, as a resuming client does)
    const received = path.join(work, 'incoming', location.split('/').pop()!);
    await waitFor(async () => (await stat(received).catch(() => null))?.size === 300 * 1024, 10_000, 'the first 300 kB to be written');

    const signalledAt = Date.now();
    stopping.child.kill('SIGTERM');
    // (before, the PATCH held the stop up for the whole grace and was cut with the exit: no answer)
    const patched = await Promise.race([answered, stopping.exited.then(() => null)]);
    expect(patched).not.toBeNull();
    await body(patched!);
    patch.destroy();
    const code = await stopping.exited;
    const exitedAt = Date.now();

    // answered with what it had, the connection not to be reused, and a clean exit well within the grace
    expect(patched!.statusCode).toBe(204);
    expect(patched!.headers['upload-offset']).toBe(String(300 * 1024));
    expect(patched!.headers.connection).toBe('close');
    expect(code).toBe(0);
    expect(exitedAt - signalledAt).toBeLessThan(graceMs);

    // the client resumes on the other copy from that offset and the upload becomes a post
    const other = processClient(otherUrl, sessionToken);
    const head = await tusHead(other, location);
    expect(head.headers.get('upload-offset')).toBe(String(300 * 1024));
    const rest = await tusPatch(other, location, 300 * 1024, file.subarray(300 * 1024));
    expect(rest.status).toBe(204);
    expect(rest.headers.get(UPLOAD_POST_ID_HEADER)).toBeTruthy();
    const stored = await database.db.selectFrom('uploads').select('byte_size').where('id', '=', location.split('/').pop()!).executeTakeFirstOrThrow();
    expect(stored.byte_size).toBe(String(file.length));
  }, 120_000);
});

describe('a worker killed hard (SIGKILL) mid-video', () => {
  it('leaves no ffmpeg running, and the next worker sweeps its temp folder', async () => {
    // the job handed back by the test above would run first
    await transcode.drain();
    const { postId } = await tusUpload(processClient(await startedServerUrl(), sessionToken), video, uploadFields('killed.mp4'), {
      chunkSize: 8 * 1024 * 1024,
    });
    const first = start('worker/main.ts', settings());
    await runningJob(postId);
    const { pids, dir } = await ffmpegOf(first.child.pid!);
    expect(pids.every(isRunning)).toBe(true);

    // the worker alone, not its process group: nothing of it runs an exit handler
    process.kill(first.child.pid!, 'SIGKILL');
    await first.exited;
    await waitFor(async () => pids.every((pid) => !isRunning(pid)), 3_000, 'ffmpeg to die with its worker');
    expect(existsSync(dir)).toBe(true);

    // (the job itself is recovered as stalled: worker-crash.test.ts)
    const second = start('worker/main.ts', settings());
    await waitFor(async () => !existsSync(dir), 20_000, 'the dead worker’s temp folder to be swept');
    // started (its signal handlers in place) before it is stopped
    await waitFor(async () => (await transcode.getWorkersCount()) > 0, 20_000, 'the next worker to run');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);
});

describe('npm run worker', () => {
  it('stops its node process on SIGTERM: nothing is left running', async () => {
    const npm = spawn('npm', ['run', 'worker'], {
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...settings() },
      stdio: 'ignore',
      detached: true,
    });
    const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    const mail = new Queue('mail', { connection, prefix });
    try {
      await waitFor(async () => (await mail.getWorkersCount()) > 0, 30_000, 'the worker to be running');
      const tree = descendantsOf(npm.pid!);
      expect(tree.length).toBeGreaterThan(0);
      npm.kill('SIGTERM');
      await exited;
      await waitFor(async () => tree.every((pid) => !isRunning(pid)), 15_000, 'every process of `npm run worker` to stop');
      expect(await mail.getWorkersCount()).toBe(0);
    } finally {
      killGroup(npm.pid);
      await mail.close();
    }
  }, 60_000);
});

/** A server without workers for the uploads of the worker tests (the workers are the tests' own processes). */
async function startedServerUrl() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  start('scripts/serve.ts', settings({ PORT: String(port), APP_URL: url, RUN_WORKER: 'false' }));
  await waitUntilReady(url);
  return url;
}
