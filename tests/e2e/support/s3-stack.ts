import { expect, type APIRequestContext } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig } from '../../../core/config';
import { createMigratedDatabase, type TestDatabase } from '../../helpers/databases';
import { FACTORY_PASSWORD, makeUser, type MadeUser } from '../../helpers/factories';
import { freePort } from '../../helpers/processes';
import { newS3Bucket, startS3Server, type RunningS3Server } from '../../helpers/s3-server';
import { trpcMutation } from './app';
import { startServerProcess } from './server-process';


export interface S3Stack {
  baseURL: string;
  /** a creator of this stack's database (the run's demo is not in it) */
  creator: MadeUser;
  /** (re)starts the server with its workers; resolves once it answers /readyz */
  start(): Promise<void>;
  /** kills the server and its workers without warning, as a crash or a lost machine would */
  kill(): Promise<void>;
  signIn(request: APIRequestContext): Promise<void>;
  close(): Promise<void>;
}

/**
 * A whole app with STORAGE_DRIVER=s3, beside the run's own (which stores on disk): its own
 * database (migrated, with one creator), Redis prefix, bucket on its own s3rver, and
 * `scripts/serve.ts` with the workers in the same process, so uploads, processing and media all
 * go through the object store, and killing the process kills its worker too. Nothing of it is
 * shared with the run's app: its worker never sees the other's jobs, nor the other's this one's.
 */
export async function startS3Stack(): Promise<S3Stack> {
  const base = JSON.parse(process.env.E2E_SERVER_ENV!) as Record<string, string>;
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432';
  const id = `${process.env.E2E_PORT}_s3_${Date.now().toString(36)}`;
  let s3: RunningS3Server | null = null;
  let database: TestDatabase | null = null;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'creator-e2e-s3-'));
  const port = await freePort();
  const baseURL = `http://localhost:${port}`;
  let server: ChildProcess | null = null;
  let env: Record<string, string> = {};

  const close = async () => {
    await kill();
    if (env.REDIS_PREFIX) {
      const redis = new Redis(loadConfig(env).REDIS_URL);
      const keys = await redis.keys(`${env.REDIS_PREFIX}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
    await database?.destroy();
    await s3?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  const kill = async () => {
    const child = server;
    server = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };

  try {
    s3 = await startS3Server();
    database = await createMigratedDatabase(serverUrl, `creator_e2e_${id}`);
    const creator = await makeUser(database.db, { isCreator: true, visibility: 'private' });
    env = {
      ...(process.env as Record<string, string>),
      ...base,
      ...(await newS3Bucket(s3.url)),
      DATABASE_URL: database.url,
      REDIS_PREFIX: `e2e-${id}`,
      STORAGE_DIR: path.join(dataDir, 'storage'),
      UPLOADS_DIR: path.join(dataDir, 'uploads-incoming'),
      OUTBOX_DIR: path.join(dataDir, 'outbox'),
      PORT: String(port),
      APP_URL: baseURL,
      RUN_WORKER: 'true',
    };
    const start = async () => {
      server = await startServerProcess(env);
    };
    return {
      baseURL,
      creator,
      start,
      kill,
      async signIn(request) {
        const signedIn = await trpcMutation(request, baseURL, 'auth.signIn', { email: creator.email, password: FACTORY_PASSWORD });
        expect(signedIn.status).toBe(200);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
