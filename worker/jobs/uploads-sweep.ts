import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Deletes tus uploads in `directory` created more than `maxAgeMs` ago: the data file `<id>` and
 * its info file `<id>.json` (tus's file store layout), and stray files of either kind. A
 * finished upload was removed when it became a post, so what is left is abandoned.
 */
export async function sweepIncomingUploads(directory: string, maxAgeMs: number, now = Date.now()): Promise<{ removed: number }> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { removed: 0 };
    throw error;
  }
  const ids = new Set(names.map((name) => name.replace(/\.json$/, '')));
  let removed = 0;
  for (const id of ids) {
    if (!/^[0-9a-f]{32}$/.test(id)) continue;
    const info = path.join(directory, `${id}.json`);
    const data = path.join(directory, id);
    let created: number | null = null;
    try {
      const parsed = JSON.parse(await readFile(info, 'utf8')) as { creation_date?: string };
      created = parsed.creation_date ? Date.parse(parsed.creation_date) : null;
    } catch {
      // no (readable) info file: judge by the data file's age
    }
    if (created === null || Number.isNaN(created)) {
      const s = await stat(data).catch(() => stat(info).catch(() => null));
      created = s ? s.mtimeMs : null;
    }
    if (created === null || now - created <= maxAgeMs) continue;
    await rm(data, { force: true });
    await rm(info, { force: true });
    removed++;
  }
  return { removed };
}
