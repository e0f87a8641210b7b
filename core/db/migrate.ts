import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Migrator, NO_MIGRATIONS, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import pg from 'pg';
import type { DB } from './kysely';
import { repoRoot } from '../repo-root';
import { ServiceUnreachable } from '../service-unreachable';

export const MIGRATIONS_DIR = path.join(repoRoot, 'migrations');

/**
 * Kysely's FileMigrationProvider imports from inside node_modules, where neither vitest nor tsx
 * transpiles TypeScript reliably; importing from this module goes through whichever loader runs us.
 * Only files directly in migrations/ count (helpers live in migrations/lib/).
 */
class MigrationFolderProvider implements MigrationProvider {
  constructor(private readonly dir: string) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const entries = await fs.readdir(this.dir, { withFileTypes: true });
    const migrations: Record<string, Migration> = {};
    for (const entry of entries) {
      if (!entry.isFile() || !/^\d.*\.(ts|js|mjs)$/.test(entry.name) || entry.name.endsWith('.d.ts')) continue;
      const module = (await import(pathToFileURL(path.join(this.dir, entry.name)).href)) as Migration;
      migrations[entry.name.replace(/\.[^.]+$/, '')] = { up: module.up, down: module.down };
    }
    return migrations;
  }
}

function migrator(db: DB): Migrator {
  return new Migrator({ db, provider: new MigrationFolderProvider(MIGRATIONS_DIR) });
}

export type MigrationLog = (line: string) => void;

function report({ error, results }: MigrationResultSet, log: MigrationLog, verb: string): void {
  for (const r of results ?? []) {
    if (r.status === 'Success') log(`${verb} ${r.migrationName}`);
    else if (r.status === 'Error') log(`Failed ${r.migrationName}`);
  }
  if (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration failed: ${cause}`, { cause: error });
  }
}

export async function migrateToLatest(db: DB, log: MigrationLog = () => {}): Promise<void> {
  report(await migrator(db).migrateToLatest(), log, 'Applied');
}

/** Undoes `steps` migrations, or every one with 'all' (leaving only Kysely's bookkeeping tables). */
export async function migrateDown(db: DB, steps: number | 'all' = 1, log: MigrationLog = () => {}): Promise<void> {
  const m = migrator(db);
  if (steps === 'all') return report(await m.migrateTo(NO_MIGRATIONS), log, 'Reverted');
  for (let i = 0; i < steps; i++) {
    const result = await m.migrateDown();
    report(result, log, 'Reverted');
    if (!result.results?.length) break;
  }
}

/** Postgres identifiers are safe here only when plain; anything else is refused rather than escaped. */
export function quoteDatabaseName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_-]{0,62}$/.test(name)) throw new Error(`Refusing unusual database name: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

export function databaseNameOf(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`DATABASE_URL names no database: ${redact(databaseUrl)}`);
  return name;
}

/** The same server and credentials with another database (the `postgres` maintenance one by default). */
export function withDatabase(databaseUrl: string, name = 'postgres'): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

export async function withMaintenanceClient<T>(databaseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(databaseUrl), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates the database of the URL when missing; returns whether it did. */
export async function ensureDatabaseExists(databaseUrl: string): Promise<boolean> {
  const name = databaseNameOf(databaseUrl);
  const quoted = quoteDatabaseName(name);
  return withMaintenanceClient(databaseUrl, async (client) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`create database ${quoted}`);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === '42P04') return false; // created meanwhile by another process
      throw error;
    }
  });
}

export class PostgresUnreachableError extends ServiceUnreachable {}

export function hostPortOf(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const host = url.hostname || url.searchParams.get('host') || 'localhost';
  return `${host}:${url.port || '5432'}`;
}

/**
 * Throws PostgresUnreachableError (one printable line) when nothing answers at the URL's host.
 * A server that answers with an error (say, the database does not exist yet) counts as reachable.
 */
export async function assertPostgresReachable(databaseUrl: string, timeoutMs = 3_000): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
  } catch (error) {
    if (error instanceof pg.DatabaseError) return; // the server answered
    throw new PostgresUnreachableError(
      `PostgreSQL is not reachable at ${hostPortOf(databaseUrl)}: start it (docker compose up -d postgres) or set DATABASE_URL`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => {});
  }
}

export function redact(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.password) url.password = '***';
  return url.toString();
}
