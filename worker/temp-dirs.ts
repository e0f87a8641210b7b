import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A media job's temp folder: `media-w<worker pid>-<post id>-XXXXXX` in the system temp dir. */
export const mediaTempPrefix = (postId: string) => `media-w${process.pid}-${postId}-`;
/** A data export's temp folder (worker/jobs/data-export.ts), swept the same way: a killed export leaves a partial zip. */
export const exportTempPrefix = (exportId: string) => `export-w${process.pid}-${exportId}-`;

const OWNED = /^(?:media|export)-w(\d+)-/;
/** No job runs this long (worker/media/bounds.ts): a folder this old belongs to nobody, whatever its pid says. */
const ABANDONED_AFTER_MS = 24 * 3_600_000;
/** A folder without the owner's pid (an older version's) is left this long to a job that may still use it. */
const UNOWNED_AFTER_MS = 3_600_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * At a worker's start: removes the media and export temp folders of workers that are gone (killed hard,
 * out of memory, power lost), which may hold a whole upload and its transcode. Folders of live
 * workers (several copies on one machine share the temp dir) are left alone.
 */
export async function sweepStaleMediaTempDirs(dir = tmpdir(), now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith('media-') || n.startsWith('export-'))) {
    const full = path.join(dir, name);
    const info = await stat(full).catch(() => null);
    if (!info?.isDirectory()) continue;
    const age = now - info.mtimeMs;
    const owner = OWNED.exec(name);
    const stale = owner ? age > ABANDONED_AFTER_MS || (Number(owner[1]) !== process.pid && !isAlive(Number(owner[1]))) : age > UNOWNED_AFTER_MS;
    if (!stale) continue;
    await rm(full, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
