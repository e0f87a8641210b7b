import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newS3Bucket } from '../../tests/helpers/s3-server';
import { S3Storage } from './s3';
import { InvalidStorageKeyError, RangeNotSatisfiableError, StorageNotFoundError } from './storage';

/** The S3 driver against a real S3 server (s3rver on loopback, started by the run's global setup). */
let storage: S3Storage;
beforeAll(async () => {
  const env = await newS3Bucket(inject('s3Url'));
  storage = new S3Storage({
    endpoint: env.S3_ENDPOINT!,
    bucket: env.S3_BUCKET!,
    accessKeyId: env.S3_ACCESS_KEY!,
    secretAccessKey: env.S3_SECRET_KEY!,
    region: 'us-east-1',
    partSize: 5 * 1024 * 1024,
  });
});
afterAll(() => storage?.client.destroy());

describe('S3Storage against an S3 server', () => {
  it('puts a buffer with its content type and reads it back', async () => {
    expect(await storage.put('posts/p1/web.jpg', Buffer.from('hello world'), 'image/jpeg')).toEqual({ size: 11 });
    const got = await storage.get('posts/p1/web.jpg');
    expect(got).toMatchObject({ size: 11, contentType: 'image/jpeg' });
    expect(await text(got.stream)).toBe('hello world');
    expect(await storage.stat('posts/p1/web.jpg')).toEqual({ size: 11, contentType: 'image/jpeg' });
    expect(await storage.exists('posts/p1/web.jpg')).toBe(true);
  });

  it('serves an inclusive range, clamped to the object, and 416s outside it', async () => {
    await storage.put('r/digits', Buffer.from('0123456789'), 'application/octet-stream');
    const middle = await storage.get('r/digits', { start: 2, end: 5 });
    expect(await text(middle.stream)).toBe('2345');
    expect(middle).toMatchObject({ size: 10, range: { start: 2, end: 5 } });
    const clamped = await storage.get('r/digits', { start: 8, end: 100 });
    expect(await text(clamped.stream)).toBe('89');
    expect(clamped.range).toEqual({ start: 8, end: 9 });
    await expect(storage.get('r/digits', { start: 10 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
  });

  it('stores a stream longer than a part as a multipart upload, byte for byte', async () => {
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
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(6 * 1024 * 1024));
        this.destroy(new Error('disk gone'));
      },
    });
    await expect(storage.put('posts/p3/original.mp4', failing, 'video/mp4')).rejects.toThrow();
    expect(await storage.exists('posts/p3/original.mp4')).toBe(false);
  });

  it('reports missing objects and deletes idempotently', async () => {
    await storage.put('gone/file.bin', Buffer.from('x'), 'application/octet-stream');
    await storage.delete('gone/file.bin');
    await storage.delete('gone/file.bin');
    expect(await storage.exists('gone/file.bin')).toBe(false);
    expect(await storage.stat('gone/file.bin')).toBeNull();
    await expect(storage.get('gone/file.bin')).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(storage.get('gone/file.bin', { start: 0 })).rejects.toBeInstanceOf(StorageNotFoundError);
  });

  it('refuses bad keys', async () => {
    for (const key of ['../x', 'a//b', '.meta/x', '']) {
      await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
  });

  it('signs a GET URL that serves the object with the asked headers until it expires, and then refuses', async () => {
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
    await storage.put('signed/free.jpg', Buffer.from('free'), 'image/jpeg');
    // not a clock: an hour's start handed to signedUrl as its now; no server reads it
    const at = new Date('2026-01-01T10:00:00Z').getTime();
    const a = await storage.signedUrl('signed/free.jpg', { expiresInS: 7200, windowS: 3600, now: at + 1000 });
    const b = await storage.signedUrl('signed/free.jpg', { expiresInS: 7200, windowS: 3600, now: at + 3_500_000 });
    const c = await storage.signedUrl('signed/free.jpg', { expiresInS: 7200, windowS: 3600, now: at + 3_700_000 });
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });
});
