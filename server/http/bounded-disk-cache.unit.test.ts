import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BoundedDiskCache } from './bounded-disk-cache';

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const key = (n: number) => n.toString(16).padStart(16, '0');

describe('BoundedDiskCache', () => {
  it('keeps at most its bound on disk, dropping the least recently used, and starts again from what is there', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bounded-cache-'));
    const cache = new BoundedDiskCache(dir, 1000);
    await cache.put(key(1), Buffer.alloc(400, 1));
    await cache.put(key(2), Buffer.alloc(400, 2));
    // 1 is used again, so 2 is the least recently used when 3 arrives
    expect(await cache.get(key(1))).toEqual(Buffer.alloc(400, 1));
    await cache.put(key(3), Buffer.alloc(400, 3));
    expect(await cache.get(key(2))).toBeNull();
    expect(await cache.get(key(3))).toEqual(Buffer.alloc(400, 3));
    expect((await readdir(dir)).sort()).toEqual([key(1), key(3)]);

    // another process (a restart) finds both, and keeps within the bound
    const again = new BoundedDiskCache(dir, 500);
    expect(await again.get(key(9))).toBeNull();
    expect(await readdir(dir)).toHaveLength(1);
  });

  it('refuses a key that is not hex (no paths out of its folder)', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bounded-cache-'));
    await expect(new BoundedDiskCache(dir, 1000).put('../etc/passwd', Buffer.from('x'))).rejects.toThrow(/hex/);
  });
});
