import { createHash, createHmac } from 'node:crypto';
import type { SignedUrlOptions } from './storage';

export interface PresignTarget {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** RFC 3986 as SigV4 wants it: encodeURIComponent leaves !'()* as they are. */
const escape = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/**
 * A presigned GetObject URL (query-string SigV4, path-style), the one the AWS SDK's
 * `getSignedUrl(client, new GetObjectCommand(...))` makes, byte for byte (presign.unit.test.ts
 * compares them). The SDK's middleware stack made the presign cost most of a media redirect's CPU
 * (docs/performance.md, "The media path"): here it is one SHA-256 of the canonical request and one
 * HMAC with the day's signing key, which is derived once a day (four HMACs) and kept.
 * Storage keys are validated before (storage.ts: `[A-Za-z0-9_.-]` segments), so the path needs no
 * escaping beyond the segments'.
 */
export function createPresigner(target: PresignTarget): (key: string, opts: SignedUrlOptions) => string {
  const endpoint = new URL(target.endpoint);
  const origin = endpoint.origin;
  const host = endpoint.host;
  const basePath = endpoint.pathname.replace(/\/+$/, '');
  let day = '';
  let signingKey = Buffer.alloc(0);
  const keyOf = (date: string) => {
    if (date !== day) {
      signingKey = hmac(hmac(hmac(hmac(`AWS4${target.secretAccessKey}`, date), target.region), 's3'), 'aws4_request');
      day = date;
    }
    return signingKey;
  };

  return (key, opts) => {
    const now = opts.now ?? Date.now();
    const windowMs = (opts.windowS ?? 0) * 1000;
    const signedAt = windowMs > 0 ? now - (now % windowMs) : now;
    // 20231114T221300Z: the SDK signs at whole seconds
    const amzDate = new Date(signedAt).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    const date = amzDate.slice(0, 8);
    const scope = `${date}/${target.region}/s3/aws4_request`;
    const params: [string, string][] = [
      ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
      ['X-Amz-Content-Sha256', 'UNSIGNED-PAYLOAD'],
      ['X-Amz-Credential', `${target.accessKeyId}/${scope}`],
      ['X-Amz-Date', amzDate],
      ['X-Amz-Expires', String(opts.expiresInS)],
      ['X-Amz-SignedHeaders', 'host'],
    ];
    if (opts.cacheControl) params.push(['response-cache-control', opts.cacheControl]);
    if (opts.contentDisposition) params.push(['response-content-disposition', opts.contentDisposition]);
    if (opts.contentType) params.push(['response-content-type', opts.contentType]);
    params.push(['x-id', 'GetObject']);
    // already in SigV4's order (by name, byte-wise: upper case before lower case)
    const query = params.map(([name, value]) => `${escape(name)}=${escape(value)}`).join('&');
    const path = `${basePath}/${target.bucket}/${key}`;
    const canonical = `GET\n${path}\n${query}\nhost:${host}\n\nhost\nUNSIGNED-PAYLOAD`;
    const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${createHash('sha256').update(canonical).digest('hex')}`;
    const signature = createHmac('sha256', keyOf(date)).update(toSign).digest('hex');
    // the SDK writes the signature among the others, in name order
    const at = query.indexOf('&X-Amz-SignedHeaders=');
    return `${origin}${path}?${query.slice(0, at)}&X-Amz-Signature=${signature}${query.slice(at)}`;
  };
}
