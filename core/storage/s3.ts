import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { createPresigner } from './presign';
import {
  assertValidKey,
  resolveRange,
  StorageNotFoundError,
  type ByteRange,
  type SignedUrlOptions,
  type Storage,
  type StoredObject,
} from './storage';

export interface S3StorageOptions {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** bytes per part of a multipart upload (S3's minimum is 5 MiB) */
  partSize?: number;
  /** for tests: a client of one's own */
  client?: S3Client;
}

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;

/**
 * An S3-compatible bucket (MinIO in docker-compose, or AWS S3). Path-style addressing, which
 * MinIO needs and AWS accepts; checksums only where the API requires them (the SDK's newer
 * default sends trailing CRC32 checksums in aws-chunked bodies, which several S3-compatible
 * stores reject). Objects are private: the only way to one from outside is a presigned GET URL
 * (`signedUrl`), which the media route hands out after its access check.
 *
 * `put` of a Buffer is one PutObject; a stream is cut into parts of `partSize` bytes and sent
 * as a multipart upload (one PutObject when it is shorter than a part), so a 100 MB video is
 * never held in memory whole. A failed multipart upload is aborted, leaving nothing behind.
 * `get` with a range asks HeadObject for the size first (to clamp the range exactly as the
 * disk driver does, and to answer 416 without a request S3 would refuse).
 */
export class S3Storage implements Storage {
  readonly client: S3Client;
  readonly bucket: string;
  private readonly partSize: number;
  private readonly presign: ReturnType<typeof createPresigner>;

  constructor(opts: S3StorageOptions) {
    this.bucket = opts.bucket;
    this.partSize = opts.partSize ?? DEFAULT_PART_SIZE;
    this.presign = createPresigner(opts);
    this.client =
      opts.client ??
      new S3Client({
        endpoint: opts.endpoint,
        region: opts.region,
        forcePathStyle: true,
        credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<{ size: number }> {
    assertValidKey(key);
    if (Buffer.isBuffer(body)) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }),
      );
      return { size: body.length };
    }
    return this.putStream(key, body, contentType);
  }

  private async putStream(key: string, body: Readable, contentType: string): Promise<{ size: number }> {
    const parts = chunked(body, this.partSize);
    const first = await parts.next();
    const firstPart = first.done ? Buffer.alloc(0) : first.value;
    const second = first.done ? first : await parts.next();
    if (second.done) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: firstPart, ContentType: contentType, ContentLength: firstPart.length }),
      );
      return { size: firstPart.length };
    }

    const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }));
    const uploadId = created.UploadId;
    if (!uploadId) throw new Error(`S3 gave no upload id for ${key}`);
    const done: { ETag: string; PartNumber: number }[] = [];
    let size = 0;
    const sendPart = async (part: Buffer) => {
      const partNumber = done.length + 1;
      const result = await this.client.send(
        new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: part, ContentLength: part.length }),
      );
      if (!result.ETag) throw new Error(`S3 gave no ETag for part ${partNumber} of ${key}`);
      done.push({ ETag: result.ETag, PartNumber: partNumber });
      size += part.length;
    };
    try {
      await sendPart(firstPart);
      await sendPart(second.value);
      for (let next = await parts.next(); !next.done; next = await parts.next()) await sendPart(next.value);
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: done } }),
      );
      return { size };
    } catch (error) {
      body.destroy();
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch(() => {});
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject> {
    assertValidKey(key);
    let served: { start: number; end: number } | undefined;
    let size: number | undefined;
    if (range) {
      const info = await this.stat(key);
      if (!info) throw new StorageNotFoundError(key);
      served = resolveRange(range, info.size);
      size = info.size;
    }
    try {
      const result = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(served && { Range: `bytes=${served.start}-${served.end}` }) }),
      );
      const stream = toReadable(result.Body);
      return {
        stream,
        size: size ?? Number(result.ContentLength ?? 0),
        ...(result.ContentType && { contentType: result.ContentType }),
        ...(served && { range: served }),
      };
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number; contentType?: string } | null> {
    assertValidKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(head.ContentLength ?? 0), ...(head.ContentType && { contentType: head.ContentType }) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    // S3 answers 204 for a missing key as well: deleting twice is fine.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  /** CopyObject: the store copies the bytes itself (up to 5 GB in one call, past any upload limit here). */
  async copy(fromKey: string, toKey: string, contentType: string): Promise<{ size: number }> {
    assertValidKey(fromKey);
    assertValidKey(toKey);
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: toKey,
          CopySource: `${this.bucket}/${fromKey}`,
          ContentType: contentType,
          MetadataDirective: 'REPLACE',
        }),
      );
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(fromKey);
      throw error;
    }
    const info = await this.stat(toKey);
    if (!info) throw new StorageNotFoundError(toKey);
    return { size: info.size };
  }

  /**
   * A presigned GetObject (query-string SigV4): the response headers asked for are signed in. Made
   * by ./presign.ts, the SDK's URL byte for byte at a small part of its CPU (presign.unit.test.ts).
   */
  async signedUrl(key: string, opts: SignedUrlOptions): Promise<string> {
    assertValidKey(key);
    return this.presign(key, opts);
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

function toReadable(body: unknown): Readable {
  if (body instanceof Readable) return body;
  if (body && typeof (body as ReadableStream).getReader === 'function') return Readable.fromWeb(body as never);
  throw new Error('S3 returned no body');
}

/** Reads a stream as Buffers of exactly `size` bytes (the last one shorter). */
async function* chunked(stream: Readable, size: number): AsyncGenerator<Buffer, void, undefined> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const raw of stream) {
    let chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw as Uint8Array);
    while (pendingBytes + chunk.length >= size) {
      const take = size - pendingBytes;
      pending.push(chunk.subarray(0, take));
      yield Buffer.concat(pending);
      chunk = chunk.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (chunk.length) {
      pending.push(chunk);
      pendingBytes += chunk.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}
