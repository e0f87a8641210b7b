import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The files allowed to write the posts table, and why. Everything else changes a post through
 * domain/posts/transitions.ts, so that a new way to publish (a schedule) or a new listener (a
 * notification) cannot be bypassed.
 */
const ALLOWED: Record<string, string> = {
  'domain/posts/lifecycle.queries.ts': 'the writes of the lifecycle',
  'domain/processing/processing.queries.ts': 'touchPost: updated_at only (the lost-job sweep)',
  'server/features/account/account.queries.ts': "an account's deletion removes its posts with the rest of the account",
};

const WRITE = /(updateTable|insertInto|deleteFrom)\(\s*'posts'\s*\)|\b(update|insert\s+into|delete\s+from)\s+posts\b/i;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

describe('one post lifecycle', () => {
  it('writes the posts table only in domain/posts (and the few places named above)', async () => {
    const writers: string[] = [];
    for (const dir of ['core', 'domain', 'server', 'worker']) {
      for (const file of await sourceFiles(dir)) {
        if (WRITE.test(await readFile(path.join(root, file), 'utf8'))) writers.push(file);
      }
    }
    expect(writers.sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});
