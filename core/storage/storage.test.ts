import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, inject, it } from 'vitest';
import { newS3Bucket } from '../../tests/helpers/s3-server';
import { storageContract } from '../../tests/helpers/storage-contract';
import { DiskStorage } from './disk';
import { createStorage } from './index';
import { S3Storage } from './s3';

// Both drivers keep the one contract (tests/helpers/storage-contract.ts); each then tests what only it does.

storageContract(
  'DiskStorage',
  async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'storage-test-'));
    return { storage: new DiskStorage(root), close: () => rm(root, { recursive: true, force: true }) };
  },
  (store) => {
    it('replaces an object through a temporary file it leaves nothing of', async () => {
      const storage = store();
      await storage.put('posts/p5/original.txt', Buffer.from('old'), 'text/plain');
      await storage.put('posts/p5/original.txt', Readable.from([Buffer.from('new')]), 'text/plain');
      expect(await readdir(path.join(storage.root, '.tmp'))).toEqual([]);
    });
  },
);

/** The S3 driver against a real S3 server (s3rver on loopback, started by the run's global setup), in a bucket of its own. */
storageContract(
  'S3Storage against an S3 server',
  async () => {
    const env = await newS3Bucket(inject('s3Url'));
    const storage = new S3Storage({
      endpoint: env.S3_ENDPOINT!,
      bucket: env.S3_BUCKET!,
      accessKeyId: env.S3_ACCESS_KEY!,
      secretAccessKey: env.S3_SECRET_KEY!,
      region: 'us-east-1',
      partSize: 5 * 1024 * 1024,
    });
    return { storage, close: async () => storage.client.destroy() };
  },
  (store) => {
    it('stores a stream longer than a part as a multipart upload, byte for byte', async () => {
      const storage = store();
      const bytes = Buffer.alloc(5 * 1024 * 1024 * 2 + 1234);
      for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i % 251;
      // delivered in odd-sized chunks, as a file stream would
      const chunks = [];
      for (let i = 0; i < bytes.length; i += 777_777) chunks.push(bytes.subarray(i, i + 777_777));
      expect(await storage.put('posts/p2/original.mp4', Readable.from(chunks), 'video/mp4')).toEqual({ size: bytes.length });
      const got = await storage.get('posts/p2/original.mp4');
      expect(got.contentType).toBe('video/mp4');
      expect(Buffer.concat(await got.stream.toArray()).equals(bytes)).toBe(true);

      await storage.put('posts/p2/poster.jpg', Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 'image/jpeg');
      expect(await text((await storage.get('posts/p2/poster.jpg')).stream)).toBe('abcd');
    });

    it('aborts the multipart upload when the stream fails, leaving nothing', async () => {
      const storage = store();
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(6 * 1024 * 1024));
          this.destroy(new Error('disk gone'));
        },
      });
      await expect(storage.put('posts/p3/original.mp4', failing, 'video/mp4')).rejects.toThrow();
      expect(await storage.exists('posts/p3/original.mp4')).toBe(false);
    });

    it('signs a GET URL that serves the object with the asked headers until it expires, and then refuses', async () => {
      const storage = store();
      await storage.put('signed/file.txt', Buffer.from('signed bytes'), 'text/plain');
      const url = await storage.signedUrl('signed/file.txt', {
        expiresInS: 1,
        contentType: 'text/plain; charset=utf-8',
        contentDisposition: 'attachment; filename="file.txt"',
        cacheControl: 'private, no-store',
      });
      const res = await fetch(url, { headers: { range: 'bytes=7-' } });
      expect(res.status).toBe(206);
      expect(await res.text()).toBe('bytes');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="file.txt"');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      await new Promise((r) => setTimeout(r, 2100));
      expect((await fetch(url)).status).toBe(403);
    });

    it('signs one URL for a whole window when asked (keyed, cacheable by a CDN)', async () => {
      const storage = store();
      await storage.put('signed/free.jpg', Buffer.from('free'), 'image/jpeg');
      // not a clock: an hour's start handed to signedUrl as its now; no server reads it
      const at = new Date('2026-01-01T10:00:00Z').getTime();
      const a = await storage.signedUrl('signed/free.jpg', { expiresInS: 7200, windowS: 3600, now: at + 1000 });
      const b = await storage.signedUrl('signed/free.jpg', { expiresInS: 7200, windowS: 3600, now: at + 3_500_000 });
      const c = await storage.signedUrl('signed/free.jpg', { expiresInS: 7200, windowS: 3600, now: at + 3_700_000 });
      expect(a).toBe(b);
      expect(c).not.toBe(a);
    });
  },
);

describe('createStorage', () => {
  it('builds the disk driver, and the s3 driver only with its settings', () => {
    const root = path.join(tmpdir(), 'storage-never-written');
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
