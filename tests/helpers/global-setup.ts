import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { assertPostgresReachable, withDatabase, withMaintenanceClient } from '../../core/db/migrate';
import { repoRoot } from '../../core/repo-root';
import { buildServer } from '../../scripts/build-server';
import { createMigratedDatabase, dropDatabase } from './databases';
import { startS3Server } from './s3-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** migrated once per run; every test file clones it (tests/helpers/test-db.ts) */
    templateDb: string;
    runId: string;
    /** server URL without a database name */
    databaseServerUrl: string;
    /** the run's S3 server (s3rver on loopback); a test server makes a bucket of its own on it */
    s3Url: string;
  }
}

const STALE_AFTER_MS = 24 * 60 * 60_000;

/** Base-36 time first, so leftovers of killed runs can be told apart from runs still going. */
function newRunId(): string {
  return Date.now().toString(36).padStart(9, '0') + randomBytes(3).toString('hex');
}

async function databasesOfRuns(serverUrl: string, keep: (runId: string) => boolean): Promise<string[]> {
  const { rows } = await withMaintenanceClient(serverUrl, (c) =>
    c.query<{ datname: string }>(`select datname from pg_database where datname ~ '^creator_(tmpl|test)_'`),
  );
  return rows
    .map((r) => r.datname)
    .filter((name) => {
      const runId = /^creator_(?:tmpl|test)_([a-z0-9]{15})/.exec(name)?.[1];
      return runId !== undefined && keep(runId);
    });
}

export default async function setup(project: TestProject) {
  const serverUrl = (process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
  await assertPostgresReachable(withDatabase(serverUrl));

  const runId = newRunId();
  const isStale = (id: string) => Date.now() - parseInt(id.slice(0, 9), 36) > STALE_AFTER_MS;
  for (const name of await databasesOfRuns(serverUrl, isStale)) await dropDatabase(serverUrl, name);

  const templateDb = `creator_tmpl_${runId}`;
  const template = await createMigratedDatabase(serverUrl, templateDb);
  // cloning needs the template to have no open connections
  await template.db.destroy();

  project.provide('templateDb', templateDb);
  project.provide('runId', runId);
  project.provide('databaseServerUrl', serverUrl);
  const s3 = await startS3Server();
  project.provide('s3Url', s3.url);
  // the processes the tests start (tests/helpers/server-command.ts); the workers inherit this
  const bundle = await buildServer(path.join(repoRoot, 'tests/.artifacts', `server-${runId}`));
  process.env.SERVER_BUNDLE_DIR = bundle;

  return async () => {
    await rm(bundle, { recursive: true, force: true });
    await s3.stop();
    for (const name of await databasesOfRuns(serverUrl, (id) => id === runId)) await dropDatabase(serverUrl, name);
  };
}
