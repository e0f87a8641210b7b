/**
 * A real S3-compatible server for the tests (s3rver: the S3 REST API over a folder, with SigV4
 * header and presigned-URL authentication), on loopback, no Docker. The integration run starts one
 * in its global setup and the browser run one beside its web server; each test server gets a
 * bucket of its own (`newS3Bucket`), so files never see each other's objects.
 */
import { CreateBucketCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
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
  const server = new S3rver({ address: '127.0.0.1', port, directory, silent: true, vhostBuckets: false });
  const address = (await server.run()) as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
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
