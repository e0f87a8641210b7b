import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStorage } from './disk';
import { createStorage } from './index';
import { S3Storage } from './s3';
import { InvalidStorageKeyError, RangeNotSatisfiableError, StorageNotFoundError } from './storage';

let root: string;
let storage: DiskStorage;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'storage-test-'));
  storage = new DiskStorage(root);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('DiskStorage', () => {
  it('stores a buffer and reads it back with its content type', async () => {
    expect(await storage.put('posts/p1/web.jpg', Buffer.from('hello world'), 'image/jpeg')).toEqual({ size: 11 });
    const got = await storage.get('posts/p1/web.jpg');
    expect(got.size).toBe(11);
    expect(got.contentType).toBe('image/jpeg');
    expect(await text(got.stream)).toBe('hello world');
    expect(await storage.stat('posts/p1/web.jpg')).toEqual({ size: 11, contentType: 'image/jpeg' });
    expect(await storage.exists('posts/p1/web.jpg')).toBe(true);
  });

  it('stores a stream and replaces the previous object atomically', async () => {
    await storage.put('posts/p2/original.txt', Buffer.from('old'), 'text/plain');
    await storage.put('posts/p2/original.txt', Readable.from([Buffer.from('new '), Buffer.from('content')]), 'text/markdown');
    const got = await storage.get('posts/p2/original.txt');
    expect(await text(got.stream)).toBe('new content');
    expect(got.contentType).toBe('text/markdown');
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('serves inclusive byte ranges, clamped to the object', async () => {
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

  it('deletes idempotently and reports missing objects', async () => {
    await storage.put('gone/file.bin', Buffer.from('x'), 'application/octet-stream');
    await storage.delete('gone/file.bin');
    await storage.delete('gone/file.bin');
    expect(await storage.exists('gone/file.bin')).toBe(false);
    expect(await storage.stat('gone/file.bin')).toBeNull();
    await expect(storage.get('gone/file.bin')).rejects.toBeInstanceOf(StorageNotFoundError);
    // a directory is not an object
    expect(await storage.stat('posts')).toBeNull();
    await expect(storage.get('posts')).rejects.toBeInstanceOf(StorageNotFoundError);
  });

  it('refuses keys that could leave the root or hit its bookkeeping', async () => {
    const bad = ['', '../etc/passwd', 'posts/../../x', '/etc/passwd', 'a//b', 'a/', './a', '.meta/x.json', '.tmp/x', 'a b', 'a\\b', 'ünï', 'a/%2e%2e'];
    for (const key of bad) {
      await expect(storage.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.get(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.delete(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
    await expect(storage.exists('x'.repeat(600))).rejects.toBeInstanceOf(InvalidStorageKeyError);
  });
});

describe('createStorage', () => {
  it('builds the disk driver, and the s3 driver only with its settings', () => {
    expect(createStorage({ STORAGE_DRIVER: 'disk', STORAGE_DIR: root })).toBeInstanceOf(DiskStorage);
    expect(() => createStorage({ STORAGE_DRIVER: 's3', STORAGE_DIR: root })).toThrow(/needs S3_ENDPOINT/);
    const s3 = createStorage({
      STORAGE_DRIVER: 's3',
      STORAGE_DIR: root,
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'media',
      S3_ACCESS_KEY: 'minio',
      S3_SECRET_KEY: 'minio-secret',
    });
    expect(s3).toBeInstanceOf(S3Storage);
  });
});
