import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { repoRoot } from '../../core/repo-root';
import { resolveFfmpegPath } from '../../worker/media/ffmpeg-path';
import type { MediaFile } from './media';

/**
 * The demo's media made once per machine: what the upload pipeline made of a demo source, kept
 * under a key that names the source's recipe and everything that shapes the output (the pipeline's
 * and the seed's media code, sharp's and libvips' versions, the ffmpeg binary). A fresh database
 * then costs the seed a read of these files instead of ~15 s of drawing and transcoding; the
 * first start on a machine, or any change to that code, makes them again.
 */
export interface MediaCache {
  /** the files made for `recipe` before, else `make()`'s (kept for next time) */
  through(recipe: unknown, make: () => Promise<MediaFile[]>): Promise<MediaFile[]>;
}

/** The default place: outside git (data/ is ignored) and outside node_modules (`npm ci` empties it). */
export const DEFAULT_MEDIA_CACHE_DIR = path.join(repoRoot, 'data', 'cache', 'demo-media');

/** The code whose change must remake the demo's media (test files left out). */
const CODE_DIRS = ['worker/media', 'scripts/seed'];
const CODE_FILES = ['common/uploads.ts', 'common/limits.ts', 'common/media-settings.ts'];

async function codeVersion(): Promise<string> {
  const hash = createHash('sha256');
  const files = [...CODE_FILES];
  for (const dir of CODE_DIRS) {
    for (const name of (await readdir(path.join(repoRoot, dir))).sort()) {
      if (name.endsWith('.ts') && !name.includes('.test.')) files.push(`${dir}/${name}`);
    }
  }
  for (const file of files) hash.update(file).update('\0').update(await readFile(path.join(repoRoot, file))).update('\0');
  hash.update(JSON.stringify(sharp.versions)).update(resolveFfmpegPath());
  return hash.digest('hex').slice(0, 32);
}

interface Manifest {
  files: Omit<MediaFile, 'bytes'>[];
}

/** Entries live in <dir>/<code version>/<recipe hash>; the first write of a version removes the other versions' folders. */
export function diskMediaCache(dir: string): MediaCache {
  const version = codeVersion();
  const entryOf = async (recipe: unknown) => path.join(dir, await version, createHash('sha256').update(JSON.stringify(recipe)).digest('hex'));
  let pruned: Promise<void> | undefined;
  const pruneOtherVersions = async () => {
    const current = await version;
    const names = await readdir(dir).catch(() => []);
    await Promise.all(names.filter((n) => n !== current).map((n) => rm(path.join(dir, n), { recursive: true, force: true })));
  };

  const read = async (entry: string): Promise<MediaFile[] | undefined> => {
    try {
      const manifest = JSON.parse(await readFile(path.join(entry, 'manifest.json'), 'utf8')) as Manifest;
      return await Promise.all(manifest.files.map(async (meta, i) => ({ ...meta, bytes: await readFile(path.join(entry, `${i}.${meta.ext}`)) })));
    } catch {
      return undefined; // not made yet, or unreadable: made again
    }
  };

  const write = async (entry: string, files: MediaFile[]): Promise<void> => {
    // written aside and renamed into place, so a reader never sees half an entry
    const staging = `${entry}.${randomUUID()}.tmp`;
    try {
      await (pruned ??= pruneOtherVersions());
      await mkdir(staging, { recursive: true });
      await Promise.all(files.map((f, i) => writeFile(path.join(staging, `${i}.${f.ext}`), f.bytes)));
      const manifest: Manifest = { files: files.map(({ bytes: _bytes, ...meta }) => meta) };
      await writeFile(path.join(staging, 'manifest.json'), JSON.stringify(manifest));
      await rename(staging, entry);
    } catch {
      // another seed wrote it first, or the disk said no: the cache only saves time
      await rm(staging, { recursive: true, force: true });
    }
  };

  return {
    async through(recipe, make) {
      const entry = await entryOf(recipe);
      const hit = await read(entry);
      if (hit) return hit;
      const made = await make();
      await write(entry, made);
      return made;
    },
  };
}

/** No cache: every file made afresh. */
export const noMediaCache: MediaCache = { through: (_recipe, make) => make() };
