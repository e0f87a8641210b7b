import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertValidKey,
  resolveRange,
  StorageNotFoundError,
  type ByteRange,
  type Storage,
  type StoredObject,
} from './storage';

/**
 * Files under a root directory, at the path of their key. Writes land in `<root>/.tmp` and are
 * renamed into place (atomic on one filesystem), so a reader sees the old file or the new one.
 * The content type given to `put` is kept in a sidecar `<root>/.meta/<key>.json`: keys cannot
 * start a segment with '.', so neither dot-directory can collide with a stored object.
 */
export class DiskStorage implements Storage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private filePath(key: string): string {
    assertValidKey(key);
    return path.join(this.root, key);
  }

  private metaPath(key: string): string {
    return path.join(this.root, '.meta', `${key}.json`);
  }

  /** Writes a temp file and renames it over `target`; cleans up the temp file on failure. */
  private writeAtomically(target: string, body: Buffer | Readable): Promise<number> {
    return this.placeAtomically(target, (tmp) => (Buffer.isBuffer(body) ? writeFile(tmp, body) : pipeline(body, createWriteStream(tmp))));
  }

  /** Has `fill` make a temp file, then renames it over `target`; cleans up the temp file on failure. */
  private async placeAtomically(target: string, fill: (tmp: string) => Promise<unknown>): Promise<number> {
    const tmpDir = path.join(this.root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, randomUUID());
    try {
      await fill(tmp);
      const { size } = await stat(tmp);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tmp, target);
      return size;
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<{ size: number }> {
    const target = this.filePath(key);
    await this.writeAtomically(this.metaPath(key), Buffer.from(JSON.stringify({ contentType })));
    return { size: await this.writeAtomically(target, body) };
  }

  /** A hard link to `file` renamed into place (a copy when `file` is on another filesystem). */
  async putFile(key: string, file: string, contentType: string): Promise<{ size: number }> {
    const target = this.filePath(key);
    await this.writeAtomically(this.metaPath(key), Buffer.from(JSON.stringify({ contentType })));
    const size = await this.placeAtomically(target, (tmp) =>
      link(file, tmp).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EXDEV' || error.code === 'EPERM' || error.code === 'ENOTSUP') return copyFile(file, tmp);
        throw error;
      }),
    );
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject> {
    const file = this.filePath(key);
    // Size and stream come from one open handle, so a concurrent replace cannot mix them.
    const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      throw isMissing(error) ? new StorageNotFoundError(key) : error;
    });
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new StorageNotFoundError(key);
      const served = range ? resolveRange(range, info.size) : undefined;
      const contentType = await this.contentTypeOf(key);
      const stream = handle.createReadStream(served ?? {});
      return { stream, size: info.size, contentType, ...(served && { range: served }) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number; contentType?: string } | null> {
    const info = await stat(this.filePath(key)).catch((error: NodeJS.ErrnoException) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!info?.isFile()) return null;
    return { size: info.size, contentType: await this.contentTypeOf(key) };
  }

  async delete(key: string): Promise<void> {
    await rm(this.filePath(key), { force: true });
    await rm(this.metaPath(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  private async contentTypeOf(key: string): Promise<string | undefined> {
    try {
      const meta = JSON.parse(await readFile(this.metaPath(key), 'utf8')) as { contentType?: unknown };
      return typeof meta.contentType === 'string' ? meta.contentType : undefined;
    } catch {
      return undefined; // a file put there by hand has no sidecar
    }
  }
}

function isMissing(error: NodeJS.ErrnoException): boolean {
  return error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EISDIR';
}
