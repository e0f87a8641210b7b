/**
 * A real S3-compatible server for the tests (s3rver: the S3 REST API over a folder, with SigV4
 * header and presigned-URL authentication), on loopback, no Docker. The integration run starts one
 * in its global setup and the browser run one beside its web server; each test server gets a
 * bucket of its own (`newS3Bucket`), so files never see each other's objects.
 */
import { CreateBucketCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver's one built-in account */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface RunningS3Server {
  url: string;
  stop(): Promise<void>;
}

export async function startS3Server(port = 0): Promise<RunningS3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  const s3rver = new S3rver({ directory, silent: true, vhostBuckets: false });
  const handle = s3rver.callback();
  const http = createServer((req, res) => {
    const listParts = req.method === 'GET' ? /^\/([^/?]+)\/[^?]+\?(?:.*&)?uploadId=([0-9a-f]+)/.exec(req.url ?? '') : null;
    if (listParts) void answerListParts(s3rver, listParts[1]!, listParts[2]!, req, res);
    else handle(req, res);
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    async stop() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * ListParts, the one call of @tus/s3-store that s3rver 3.7 lacks (it answers 405): the parts
 * s3rver itself stored for the upload (its files `<n>` and `<n>.md5` in the upload's folder).
 */
async function answerListParts(s3rver: S3rver, bucket: string, uploadId: string, req: IncomingMessage, res: ServerResponse) {
  const folder = path.join(s3rver.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
  const names = await readdir(folder).catch(() => null);
  res.setHeader('content-type', 'application/xml');
  if (!names) {
    res.writeHead(404).end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>');
    return;
  }
  const numbers = names.filter((n) => /^\d+$/.test(n)).map(Number).sort((a, b) => a - b);
  const parts = await Promise.all(
    numbers.map(async (n) => {
      const [info, md5] = await Promise.all([stat(path.join(folder, String(n))), readFile(path.join(folder, `${n}.md5`), 'utf8')]);
      return `<Part><PartNumber>${n}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${info.size}</Size></Part>`;
    }),
  );
  const key = decodeURIComponent(new URL(req.url!, 'http://x').pathname.split('/').slice(2).join('/'));
  res.writeHead(200).end(
    `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId>` +
      `<MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
  );
}

/** The settings of a server whose storage is `bucket` on the S3 server at `url`. */
export function s3Env(url: string, bucket: string): Record<string, string> {
  return {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: url,
    S3_BUCKET: bucket,
    S3_ACCESS_KEY: S3_TEST_CREDENTIALS.accessKeyId,
    S3_SECRET_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    S3_REGION: 'us-east-1',
  };
}

/**
 * Makes an empty bucket of its own and returns its settings. Browsers fetch media straight from it
 * (the media route redirects there), so it answers CORS for any origin, as a bucket behind a CDN would.
 */
export async function newS3Bucket(url: string, name = `t-${randomBytes(6).toString('hex')}`): Promise<Record<string, string>> {
  const client = new S3Client({
    endpoint: url,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3_TEST_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: name }));
    await client.send(
      new PutBucketCorsCommand({
        Bucket: name,
        CORSConfiguration: {
          CORSRules: [{ AllowedOrigins: ['*'], AllowedMethods: ['GET', 'HEAD'], AllowedHeaders: ['*'], ExposeHeaders: ['Content-Range', 'Content-Length', 'ETag'] }],
        },
      }),
    );
  } finally {
    client.destroy();
  }
  return s3Env(url, name);
}
