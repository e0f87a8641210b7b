import type { Config } from '../config';
import { DiskStorage } from './disk';
import { S3Storage } from './s3';
import type { Storage } from './storage';

export type { Storage } from './storage';

export type StorageConfig = Pick<Config, 'STORAGE_DRIVER' | 'STORAGE_DIR'> &
  Partial<Pick<Config, 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_ACCESS_KEY' | 'S3_SECRET_KEY' | 'S3_REGION'>>;

/** STORAGE_DRIVER=disk (default, under STORAGE_DIR) or s3 (any S3-compatible store, e.g. MinIO). */
export function createStorage(config: StorageConfig): Storage {
  switch (config.STORAGE_DRIVER) {
    case 'disk':
      return new DiskStorage(config.STORAGE_DIR);
    case 's3': {
      const { S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY, S3_SECRET_KEY } = config;
      if (!S3_ENDPOINT || !S3_BUCKET || !S3_ACCESS_KEY || !S3_SECRET_KEY) {
        throw new Error('STORAGE_DRIVER=s3 needs S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY and S3_SECRET_KEY');
      }
      return new S3Storage({
        endpoint: S3_ENDPOINT,
        bucket: S3_BUCKET,
        accessKeyId: S3_ACCESS_KEY,
        secretAccessKey: S3_SECRET_KEY,
        region: config.S3_REGION ?? 'us-east-1',
      });
    }
  }
}
