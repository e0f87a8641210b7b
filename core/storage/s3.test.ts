import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { buffer as readAll, text } from 'node:stream/consumers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { S3Storage } from './s3';
import { InvalidStorageKeyError, RangeNotSatisfiableError, StorageNotFoundError } from './storage';

/**
 * The S3 driver against a small in-process stand-in for S3 (path-style, no auth checks): the
 * real SDK builds and signs real HTTP requests, so this checks the request mapping (method,
 * path, query, Range, Content-Type, multipart sequence) and the answers' handling without a
 * MinIO. What it does not check is S3's own behaviour; docker-compose's MinIO is for that.
 */
interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  range?: string;
  contentType?: string;
  bodyBytes: number;
}

class FakeS3 {
  objects = new Map<string, { body: Buffer; contentType: string }>();
  uploads = new Map<string, { key: string; contentType: string; parts: Map<number, Buffer> }>();
  requests: Recorded[] = [];
  server!: Server;
  url = '';
  private nextId = 1;

  async start() {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, headers = {}, body }) => {
          res.writeHead(status, headers);
          res.end(body);
        },
        (error: Error) => {
          res.writeHead(500).end(error.message);
        },
      );
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; headers?: Record<string, string>; body?: Buffer | string }> {
    const url = new URL(req.url!, 'http://x');
    const body = await readAll(req);
    const query = Object.fromEntries(url.searchParams);
    this.requests.push({
      method: req.method!,
      path: decodeURIComponent(url.pathname),
      query,
      range: req.headers.range,
      contentType: req.headers['content-type'],
      bodyBytes: body.length,
    });
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    if (bucket !== 'media') return xmlError(404, 'NoSuchBucket');
    const obj = this.objects.get(key);

    if (req.method === 'PUT' && query.uploadId) {
      this.uploads.get(query.uploadId)!.parts.set(Number(query.partNumber), body);
      return { status: 200, headers: { ETag: `"part-${query.partNumber}"` } };
    }
    if (req.method === 'PUT') {
      this.objects.set(key, { body, contentType: req.headers['content-type'] ?? 'application/octet-stream' });
      return { status: 200, headers: { ETag: '"x"' } };
    }
    if (req.method === 'POST' && 'uploads' in query) {
      const id = `upload-${this.nextId++}`;
      this.uploads.set(id, { key, contentType: req.headers['content-type'] ?? 'application/octet-stream', parts: new Map() });
      return xml(`<InitiateMultipartUploadResult><Bucket>media</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
    }
    if (req.method === 'POST' && query.uploadId) {
      const upload = this.uploads.get(query.uploadId)!;
      const numbers = [...body.toString().matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
      this.objects.set(upload.key, { body: Buffer.concat(numbers.map((n) => upload.parts.get(n)!)), contentType: upload.contentType });
      this.uploads.delete(query.uploadId);
      return xml(`<CompleteMultipartUploadResult><Bucket>media</Bucket><Key>${key}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`);
    }
    if (req.method === 'DELETE' && query.uploadId) {
      this.uploads.delete(query.uploadId);
      return { status: 204 };
    }
    if (req.method === 'DELETE') {
      this.objects.delete(key);
      return { status: 204 };
    }
    if (!obj) return req.method === 'HEAD' ? { status: 404 } : xmlError(404, 'NoSuchKey');
    const headers: Record<string, string> = { 'Content-Type': obj.contentType, 'Content-Length': String(obj.body.length), ETag: '"x"' };
    if (req.method === 'HEAD') return { status: 200, headers };
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (range) {
      const [start, end] = [Number(range[1]), Number(range[2])];
      const slice = obj.body.subarray(start, end + 1);
      return {
        status: 206,
        headers: { ...headers, 'Content-Length': String(slice.length), 'Content-Range': `bytes ${start}-${end}/${obj.body.length}` },
        body: slice,
      };
    }
    return { status: 200, headers, body: obj.body };
  }
}

const xml = (body: string) => ({ status: 200, headers: { 'Content-Type': 'application/xml' }, body: `<?xml version="1.0" encoding="UTF-8"?>${body}` });
const xmlError = (status: number, code: string) => ({
  status,
  headers: { 'Content-Type': 'application/xml' },
  body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`,
});

const s3 = new FakeS3();
let storage: S3Storage;
beforeAll(async () => {
  await s3.start();
  storage = new S3Storage({
    endpoint: s3.url,
    bucket: 'media',
    accessKeyId: 'test',
    secretAccessKey: 'test-secret',
    region: 'us-east-1',
    partSize: 5 * 1024 * 1024,
  });
});
afterAll(async () => {
  storage?.client.destroy();
  await s3.stop();
});
beforeEach(() => {
  s3.requests = [];
});

describe('S3Storage', () => {
  it('puts a buffer as one PutObject with its content type, path-style, and reads it back', async () => {
    expect(await storage.put('posts/p1/web.jpg', Buffer.from('hello world'), 'image/jpeg')).toEqual({ size: 11 });
    expect(s3.requests).toMatchObject([{ method: 'PUT', path: '/media/posts/p1/web.jpg', contentType: 'image/jpeg', bodyBytes: 11 }]);
    const got = await storage.get('posts/p1/web.jpg');
    expect(got).toMatchObject({ size: 11, contentType: 'image/jpeg' });
    expect(await text(got.stream)).toBe('hello world');
    expect(await storage.stat('posts/p1/web.jpg')).toEqual({ size: 11, contentType: 'image/jpeg' });
    expect(await storage.exists('posts/p1/web.jpg')).toBe(true);
  });

  it('serves an inclusive range after a HeadObject, clamped to the object, and 416s outside it', async () => {
    await storage.put('r/digits', Buffer.from('0123456789'), 'application/octet-stream');
    s3.requests = [];
    const middle = await storage.get('r/digits', { start: 2, end: 5 });
    expect(await text(middle.stream)).toBe('2345');
    expect(middle).toMatchObject({ size: 10, range: { start: 2, end: 5 } });
    expect(s3.requests.map((r) => [r.method, r.range])).toEqual([
      ['HEAD', undefined],
      ['GET', 'bytes=2-5'],
    ]);
    const clamped = await storage.get('r/digits', { start: 8, end: 100 });
    expect(await text(clamped.stream)).toBe('89');
    expect(clamped.range).toEqual({ start: 8, end: 9 });
    await expect(storage.get('r/digits', { start: 10 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
  });

  it('sends a long stream as a multipart upload and a short one as one PutObject', async () => {
    const part = 5 * 1024 * 1024;
    const bytes = Buffer.alloc(part * 2 + 1234);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i % 251;
    // delivered in odd-sized chunks, as a file stream would
    const chunks = [];
    for (let i = 0; i < bytes.length; i += 777_777) chunks.push(bytes.subarray(i, i + 777_777));
    expect(await storage.put('posts/p2/original.mp4', Readable.from(chunks), 'video/mp4')).toEqual({ size: bytes.length });
    expect(s3.requests.map((r) => `${r.method} ${'uploads' in r.query ? 'create' : r.query.partNumber ? `part ${r.query.partNumber}:${r.bodyBytes}` : r.query.uploadId ? 'complete' : 'put'}`)).toEqual([
      'POST create',
      `PUT part 1:${part}`,
      `PUT part 2:${part}`,
      'PUT part 3:1234',
      'POST complete',
    ]);
    const stored = s3.objects.get('posts/p2/original.mp4')!;
    expect(stored.contentType).toBe('video/mp4');
    expect(stored.body.equals(bytes)).toBe(true);

    s3.requests = [];
    await storage.put('posts/p2/poster.jpg', Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 'image/jpeg');
    expect(s3.requests.map((r) => [r.method, r.bodyBytes])).toEqual([['PUT', 4]]);
    expect(s3.objects.get('posts/p2/poster.jpg')!.body.toString()).toBe('abcd');
  });

  it('aborts the multipart upload when the stream fails', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(6 * 1024 * 1024));
        this.destroy(new Error('disk gone'));
      },
    });
    await expect(storage.put('posts/p3/original.mp4', failing, 'video/mp4')).rejects.toThrow();
    expect(s3.uploads.size).toBe(0);
    expect(s3.objects.has('posts/p3/original.mp4')).toBe(false);
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

  it('refuses bad keys before any request', async () => {
    for (const key of ['../x', 'a//b', '.meta/x', '']) {
      await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
    expect(s3.requests).toEqual([]);
  });
});
