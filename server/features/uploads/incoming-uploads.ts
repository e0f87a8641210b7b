import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore, Upload } from '@tus/utils';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { Config } from '../../../core/config';
import type { Storage } from '../../../core/storage/storage';
import type { FinishInput } from './uploads.service';

/** Where tus keeps uploads until they are complete, and how a complete one is read. */
export interface IncomingUploads {
  datastore: DataStore;
  /** size, reader and location of a complete upload's bytes, for finishUpload */
  received(upload: Upload): Promise<Pick<FinishInput, 'receivedSize' | 'open' | 'localPath' | 'storedKey'>>;
  /** removes an upload's bytes and bookkeeping (finished or abandoned); missing is not an error */
  remove(id: string): Promise<void>;
}

/** tus's part size in the object store (S3's minimum is 5 MiB; a resumed upload re-sends at most one part). */
const S3_PART_SIZE = 8 * 1024 * 1024;

/**
 * STORAGE_DRIVER=disk: a FileStore in UPLOADS_DIR (several copies need it on a shared volume).
 * STORAGE_DRIVER=s3: @tus/s3-store in the media bucket, one S3 multipart upload per tus upload
 * (objects `<id>`, `<id>.info` and a short `<id>.part` between PATCHes), so any copy takes any
 * request of an upload with nothing shared but the bucket and Redis (the lock). A complete
 * upload is copied inside the store to its post's key (no byte passes through this process).
 */
export function incomingUploads(config: Config, storage: Storage): IncomingUploads {
  const expirationPeriodInMilliseconds = config.UPLOAD_EXPIRY_HOURS * 3_600_000;
  if (config.STORAGE_DRIVER === 's3') {
    const datastore = new S3Store({
      partSize: S3_PART_SIZE,
      expirationPeriodInMilliseconds,
      // expiry by object tags is not something every S3-compatible store has; abandoned uploads are
      // left to the bucket's lifecycle rule (docs/operations.md)
      useTags: false,
      s3ClientConfig: {
        bucket: config.S3_BUCKET!,
        endpoint: config.S3_ENDPOINT!,
        region: config.S3_REGION,
        forcePathStyle: true,
        credentials: { accessKeyId: config.S3_ACCESS_KEY!, secretAccessKey: config.S3_SECRET_KEY! },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      },
    });
    return {
      datastore,
      async received(upload) {
        const info = await storage.stat(upload.id);
        if (!info) throw new Error(`complete upload ${upload.id} has no object`);
        return { receivedSize: info.size, storedKey: upload.id, open: () => lazyStream(storage, upload.id) };
      },
      async remove(id) {
        // a completed multipart upload cannot be aborted: the store's remove fails then, so the
        // objects are deleted here either way
        await datastore.remove(id).catch(() => {});
        await Promise.all([id, `${id}.info`, `${id}.part`].map((key) => storage.delete(key)));
      },
    };
  }
  const directory = path.resolve(config.UPLOADS_DIR);
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds });
  return {
    datastore,
    async received(upload) {
      const file = path.join(directory, upload.id);
      const { size } = await stat(file);
      return { receivedSize: size, open: () => createReadStream(file), localPath: file };
    },
    remove: (id) => datastore.remove(id),
  };
}

function lazyStream(storage: Storage, key: string): Readable {
  // finishUpload reads it only when the store cannot copy
  const out = new PassThrough();
  storage.get(key).then(
    (object) => object.stream.pipe(out),
    (error: Error) => out.destroy(error),
  );
  return out;
}
