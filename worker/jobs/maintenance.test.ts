import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStorage } from '../../core/storage/disk';
import { makePost, makeUser } from '../../tests/helpers/factories';
import { createTestDb, type TestDatabase } from '../../tests/helpers/test-db';
import type { WorkerDeps } from '../registry';
import { maintenanceHandlers } from './maintenance';

let testDb: TestDatabase;
let storageDir: string;
let deps: Pick<WorkerDeps, 'db' | 'storage' | 'log'>;
beforeAll(async () => {
  testDb = await createTestDb();
  storageDir = await mkdtemp(path.join(tmpdir(), 'maintenance-test-'));
  deps = { db: testDb.db, storage: new DiskStorage(storageDir), log: pino({ level: 'silent' }) };
});
afterAll(async () => {
  await testDb?.destroy();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

describe('delete-post-files', () => {
  it('the cleanup job is idempotent and never strips a live post', async () => {
    const alice = await makeUser(testDb.db, { isCreator: true });
    const live = await makePost(testDb.db, deps.storage, { creatorId: alice.id });
    // 'delete-post-files' reads the posts table and deletes from storage: it needs no more deps than these
    const run = (postId: string, keys: string[]) =>
      maintenanceHandlers['delete-post-files']({ data: { postId, keys } } as never, deps as WorkerDeps);
    expect(await run(live.id, Object.values(live.keys))).toEqual({ skipped: true, deleted: 0 });
    expect(await deps.storage.exists(live.keys.original!)).toBe(true);
    const gone = '00000000-0000-0000-0000-000000000001';
    await deps.storage.put(`posts/${gone}/original.jpg`, Buffer.from('x'), 'image/jpeg');
    const keys = [`posts/${gone}/original.jpg`, `posts/${gone}/web.jpg`];
    expect(await run(gone, keys)).toEqual({ skipped: false, deleted: 2 });
    expect(await run(gone, keys)).toEqual({ skipped: false, deleted: 2 });
    expect(await deps.storage.exists(keys[0]!)).toBe(false);
  });
});
