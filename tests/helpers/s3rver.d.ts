// s3rver ships no types; the part the tests use.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  interface S3rverOptions {
    address?: string;
    port?: number;
    directory?: string;
    silent?: boolean;
    vhostBuckets?: boolean;
    resetOnClose?: boolean;
  }
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default class S3rver {
    constructor(options?: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
  }
}
