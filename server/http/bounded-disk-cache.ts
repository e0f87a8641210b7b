import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Files kept on this machine's disk under names the caller makes (hex keys), at most `maxBytes` in
 * all: the least recently used go first. What it holds can always be made again (the picture marks:
 * docs/media.md), so a file lost, evicted by another copy sharing the folder or unreadable is a
 * miss. Writes are atomic (a temporary name, then a rename). The index is in memory, filled from
 * the folder at the first use, so a restart keeps what is there and stays within the bound.
 */
export class BoundedDiskCache {
  /** key -> size, in order of use (a Map keeps insertion order: touched keys are re-inserted) */
  private readonly index = new Map<string, number>();
  private total = 0;
  private ready: Promise<void> | null = null;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  async get(key: string): Promise<Buffer | null> {
    await this.open();
    if (!this.index.has(key)) return null;
    try {
      const bytes = await readFile(this.fileOf(key));
      this.touch(key, bytes.length);
      return bytes;
    } catch {
      this.forget(key);
      return null;
    }
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.open();
    if (bytes.length > this.maxBytes) return;
    const file = this.fileOf(key);
    const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, file);
    this.touch(key, bytes.length);
    await this.evict();
  }

  private fileOf(key: string): string {
    if (!/^[0-9a-f]{16,128}$/.test(key)) throw new Error('cache keys are hex');
    return path.join(this.dir, key);
  }

  private touch(key: string, size: number) {
    this.forget(key);
    this.index.set(key, size);
    this.total += size;
  }

  private forget(key: string) {
    const size = this.index.get(key);
    if (size === undefined) return;
    this.index.delete(key);
    this.total -= size;
  }

  private async evict() {
    while (this.total > this.maxBytes) {
      const oldest = this.index.keys().next().value;
      if (oldest === undefined) return;
      this.forget(oldest);
      await unlink(this.fileOf(oldest)).catch(() => undefined);
    }
  }

  private open(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      const found: Array<{ key: string; size: number; at: number }> = [];
      for (const name of await readdir(this.dir)) {
        const file = path.join(this.dir, name);
        if (!/^[0-9a-f]{16,128}$/.test(name)) {
          // a temporary file of a write that died
          if (name.endsWith('.tmp')) await unlink(file).catch(() => undefined);
          continue;
        }
        const info = await stat(file).catch(() => null);
        if (info) found.push({ key: name, size: info.size, at: info.mtimeMs });
      }
      found.sort((a, b) => a.at - b.at);
      for (const entry of found) this.touch(entry.key, entry.size);
      await this.evict();
    })();
    return this.ready;
  }
}
