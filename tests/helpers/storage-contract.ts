import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidStorageKeyError, RangeNotSatisfiableError, StorageNotFoundError, type Storage } from '../../core/storage/storage';

/** A fresh, empty store of one driver, and how to let go of it. */
export interface StorageUnderTest<S extends Storage = Storage> {
  storage: S;
  close(): Promise<void>;
}

/**
 * What every storage driver promises (core/storage/storage.ts), as one suite run against each
 * driver (core/storage/storage.test.ts). Returns the store the suite made, for the driver's own
 * tests in the same describe block.
 */
export function storageContract<S extends Storage>(name: string, make: () => Promise<StorageUnderTest<S>>, more?: (store: () => S) => void) {
  describe(name, () => {
    let under: StorageUnderTest<S>;
    beforeAll(async () => {
      under = await make();
    });
    afterAll(() => under?.close());
    const store = () => under.storage;

    it('stores a buffer and reads it back with its content type', async () => {
      const storage = store();
      expect(await storage.put('posts/p1/web.jpg', Buffer.from('hello world'), 'image/jpeg')).toEqual({ size: 11 });
      const got = await storage.get('posts/p1/web.jpg');
      expect(got).toMatchObject({ size: 11, contentType: 'image/jpeg' });
      expect(await text(got.stream)).toBe('hello world');
      expect(await storage.stat('posts/p1/web.jpg')).toEqual({ size: 11, contentType: 'image/jpeg' });
      expect(await storage.exists('posts/p1/web.jpg')).toBe(true);
    });

    it('stores a stream in place of the previous object, with its new content type', async () => {
      const storage = store();
      await storage.put('posts/p2/original.txt', Buffer.from('old'), 'text/plain');
      await storage.put('posts/p2/original.txt', Readable.from([Buffer.from('new '), Buffer.from('content')]), 'text/markdown');
      const got = await storage.get('posts/p2/original.txt');
      expect(await text(got.stream)).toBe('new content');
      expect(got.contentType).toBe('text/markdown');
    });

    it('serves inclusive byte ranges, clamped to the object, and refuses ranges outside it', async () => {
      const storage = store();
      await storage.put('r/digits', Buffer.from('0123456789'), 'application/octet-stream');
      const middle = await storage.get('r/digits', { start: 2, end: 5 });
      expect(await text(middle.stream)).toBe('2345');
      expect(middle).toMatchObject({ size: 10, range: { start: 2, end: 5 } });

      const tail = await storage.get('r/digits', { start: 7 });
      expect(await text(tail.stream)).toBe('789');
      const clamped = await storage.get('r/digits', { start: 8, end: 100 });
      expect(await text(clamped.stream)).toBe('89');
      expect(clamped.range).toEqual({ start: 8, end: 9 });

      await expect(storage.get('r/digits', { start: 10 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
      await expect(storage.get('r/digits', { start: 5, end: 3 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
    });

    it('deletes idempotently and reports missing objects, ranged or not', async () => {
      const storage = store();
      await storage.put('gone/file.bin', Buffer.from('x'), 'application/octet-stream');
      await storage.delete('gone/file.bin');
      await storage.delete('gone/file.bin');
      expect(await storage.exists('gone/file.bin')).toBe(false);
      expect(await storage.stat('gone/file.bin')).toBeNull();
      await expect(storage.get('gone/file.bin')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(storage.get('gone/file.bin', { start: 0 })).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('has no object at a key that only starts the keys of others (a folder on disk, a prefix in a bucket)', async () => {
      const storage = store();
      await storage.put('posts/p4/web.jpg', Buffer.from('x'), 'image/jpeg');
      expect(await storage.stat('posts')).toBeNull();
      await expect(storage.get('posts')).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('refuses keys that could leave the root or hit its bookkeeping', async () => {
      const storage = store();
      const bad = ['', '../etc/passwd', '../x', 'posts/../../x', '/etc/passwd', 'a//b', 'a/', './a', '.meta/x.json', '.meta/x', '.tmp/x', 'a b', 'a\\b', 'ünï', 'a/%2e%2e'];
      for (const key of bad) {
        await expect(storage.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
        await expect(storage.get(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
        await expect(storage.delete(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
      }
      await expect(storage.exists('x'.repeat(600))).rejects.toBeInstanceOf(InvalidStorageKeyError);
    });

    more?.(store);
  });
}
