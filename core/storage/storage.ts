import type { Readable } from 'node:stream';

/** Inclusive byte offsets, as in an HTTP Range header; `end` defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface StoredObject {
  stream: Readable;
  /** size of the whole object, not of the range (what Content-Range needs after the slash) */
  size: number;
  contentType?: string;
  /** the range actually served, `end` clamped to the object, when one was asked for */
  range?: { start: number; end: number };
}

/**
 * Where files live (DESIGN.md: disk by default, S3-compatible later). Keys are relative paths
 * like `posts/<postId>/web.jpg`; every method refuses a key that fails `assertValidKey`.
 */
export interface Storage {
  /** Replaces any object under the key; readers never see a partly written one. */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<{ size: number }>;
  /**
   * Stores a local file under the key without copying it where the driver can (disk: a hard
   * link, so the finish of a 100 MB upload costs what a 1 kB one does); the file itself stays.
   */
  putFile?(key: string, file: string, contentType: string): Promise<{ size: number }>;
  /** Throws StorageNotFoundError or RangeNotSatisfiableError. */
  get(key: string, range?: ByteRange): Promise<StoredObject>;
  stat(key: string): Promise<{ size: number; contentType?: string } | null>;
  /** Deleting a missing key is not an error: cleanup jobs may run twice. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /**
   * A URL that serves the object itself, without this process, until it expires (object stores
   * only; disk storage has none and its files are streamed). See SignedUrlOptions.
   */
  signedUrl?(key: string, opts: SignedUrlOptions): Promise<string>;
  /** Copies one stored object to another key inside the store (object stores: no byte passes through this process). */
  copy?(fromKey: string, toKey: string, contentType: string): Promise<{ size: number }>;
}

export interface SignedUrlOptions {
  /** how long the URL works after its signing time */
  expiresInS: number;
  /**
   * Sign as of the start of the current window of this many seconds instead of now, so every
   * request in one window gets the same URL (one cache entry in a CDN). The URL then works for
   * `expiresInS - windowS` seconds at least.
   */
  windowS?: number;
  /** response headers the store answers with (part of the signature: they cannot be changed) */
  contentType?: string;
  contentDisposition?: string;
  cacheControl?: string;
  /** for tests: the current time in ms */
  now?: number;
}

export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

export class StorageNotFoundError extends Error {
  constructor(public readonly key: string) {
    super(`No stored object at ${key}`);
  }
}

export class RangeNotSatisfiableError extends Error {
  constructor(public readonly size: number) {
    super(`Requested range is outside the object (size ${size})`);
  }
}

// Segments may not start with '.', which rules out '.', '..' and hidden names (the disk driver
// keeps its own bookkeeping under dot-directories), and there are no empty segments.
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) throw new InvalidStorageKeyError(key);
  if (!key.split('/').every((segment) => SEGMENT.test(segment))) throw new InvalidStorageKeyError(key);
}

/** Clamps a requested range to the object, or throws when nothing of it can be served. */
export function resolveRange(range: ByteRange, size: number): { start: number; end: number } {
  const end = Math.min(range.end ?? size - 1, size - 1);
  const valid = Number.isInteger(range.start) && range.start >= 0 && range.start < size && end >= range.start;
  if (!valid || (range.end !== undefined && !Number.isInteger(range.end))) throw new RangeNotSatisfiableError(size);
  return { start: range.start, end };
}
