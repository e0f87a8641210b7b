import type { Config } from '../config';
import { DiskStorage } from './disk';
import type { Storage } from './storage';

export type { Storage } from './storage';

export function createStorage(config: Pick<Config, 'STORAGE_DRIVER' | 'STORAGE_DIR'>): Storage {
  switch (config.STORAGE_DRIVER) {
    case 'disk':
      return new DiskStorage(config.STORAGE_DIR);
    case 's3':
      throw new Error('S3 driver not implemented yet: set STORAGE_DRIVER=disk');
  }
}
