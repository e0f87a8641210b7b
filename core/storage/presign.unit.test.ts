import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { createPresigner, type PresignTarget } from './presign';

/** The SDK's URL for the same request: what S3 (and s3rver, media-s3.test.ts) checks the signature against. */
async function sdkUrl(target: PresignTarget, key: string, opts: { at: number; expiresInS: number; contentType?: string; contentDisposition?: string; cacheControl?: string }) {
  const client = new S3Client({
    endpoint: target.endpoint,
    region: target.region,
    forcePathStyle: true,
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
    // as core/storage/s3.ts makes its client
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const command = new GetObjectCommand({
    Bucket: target.bucket,
    Key: key,
    ...(opts.contentType && { ResponseContentType: opts.contentType }),
    ...(opts.contentDisposition && { ResponseContentDisposition: opts.contentDisposition }),
    ...(opts.cacheControl && { ResponseCacheControl: opts.cacheControl }),
  });
  return getSignedUrl(client, command, { expiresIn: opts.expiresInS, signingDate: new Date(opts.at) });
}

const local: PresignTarget = { endpoint: 'http://127.0.0.1:9000', bucket: 'media-1', region: 'us-east-1', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const aws: PresignTarget = { endpoint: 'https://s3.eu-west-3.amazonaws.com', bucket: 'creators', region: 'eu-west-3', accessKeyId: 'AKIA0000', secretAccessKey: 'secret+/=' };

describe('createPresigner', () => {
  const cases = [
    { name: 'a free post, every response header signed', target: local, key: 'posts/6c87f58c/web.jpg', contentType: 'image/jpeg', contentDisposition: `inline; filename="a-title's (1)*.jpg"`, cacheControl: 'public, max-age=60, proxy-revalidate' },
    { name: 'no response headers, a default-port https endpoint in another region', target: aws, key: 'hls/p1/720/seg_00001.ts' },
    { name: 'a download', target: aws, key: 'posts/x/original.pdf', contentType: 'application/pdf', contentDisposition: 'attachment; filename="report.pdf"', cacheControl: 'private, max-age=60' },
  ];
  for (const c of cases) {
    it(`makes the SDK's URL byte for byte: ${c.name}`, async () => {
      const presign = createPresigner(c.target);
      const opts = { contentType: c.contentType, contentDisposition: c.contentDisposition, cacheControl: c.cacheControl };
      for (const at of [Date.UTC(2026, 11, 7, 23, 59, 59, 999), Date.UTC(2026, 11, 8, 0, 0, 1, 250)]) {
        const ours = presign(c.key, { ...opts, expiresInS: 120, now: at });
        expect(ours).toBe(await sdkUrl(c.target, c.key, { ...opts, at, expiresInS: 120 }));
      }
    });
  }

  it('signs a windowed URL as of the window start: the same URL all window long, another in the next', async () => {
    const presign = createPresigner(local);
    const start = Date.UTC(2026, 11, 7, 10, 0, 0);
    const first = presign('posts/a/web.jpg', { expiresInS: 120, windowS: 60, now: start + 1_000 });
    expect(presign('posts/a/web.jpg', { expiresInS: 120, windowS: 60, now: start + 59_999 })).toBe(first);
    expect(first).toBe(await sdkUrl(local, 'posts/a/web.jpg', { at: start, expiresInS: 120 }));
    expect(presign('posts/a/web.jpg', { expiresInS: 120, windowS: 60, now: start + 60_000 })).not.toBe(first);
    expect(new URL(first).searchParams.get('X-Amz-Date')).toBe('20261207T100000Z');
  });
});
