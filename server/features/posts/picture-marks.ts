import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AppDeps } from '../../../core/deps';
import { pictureMarks } from '../../../core/metrics';
import { markPicture } from '../../../domain/forensics/picture-mark';
import { issueMark } from '../../../domain/forensics/picture-marks.queries';
import { BoundedDiskCache } from '../../http/bounded-disk-cache';
import { FairLimiter, LimiterFullError } from '../../http/fair-limiter';
import { refuseMedia, serveBytes, type MediaFileToServe } from '../../http/serve-file';
import type { MarkFor } from './media.service';

/**
 * The media route's answer for a paid picture marked for its viewer (docs/media.md, "The picture
 * mark"): the marked copy from this copy's disk cache, or drawn now from the stored file (sharp,
 * on libvips' threads) and kept. At most two drawings run at once on a server copy, one per
 * viewer, taken in turn across viewers (FairLimiter), so a viewer scrolling through a hundred
 * paid pictures waits behind their own, not in front of others; one with more than
 * WAITING_PER_VIEWER waiting is answered 429. Two requests for the same copy draw it once.
 */
const WAITING_PER_VIEWER = 24;

export interface PictureMarker {
  serve(req: Request, res: Response, file: MediaFileToServe, mark: MarkFor, viewerLabel: string): Promise<void>;
}

export function pictureMarker(deps: AppDeps): PictureMarker {
  const cache = new BoundedDiskCache(deps.config.MARK_CACHE_DIR, deps.config.MARK_CACHE_MB * 1024 * 1024);
  const limiter = new FairLimiter({ slots: 2, perUser: 1, maxWaiting: WAITING_PER_VIEWER });
  const drawing = new Map<string, Promise<Buffer>>();

  const draw = async (key: string, file: MediaFileToServe, mark: MarkFor, label: string): Promise<Buffer> => {
    const cached = await cache.get(key);
    if (cached) {
      pictureMarks.inc({ outcome: 'cached' });
      return cached;
    }
    const issued = await issueMark(deps.db, { postId: file.postId, position: mark.position, viewerId: mark.viewerId, label });
    const object = await deps.storage.get(file.storageKey);
    const chunks: Buffer[] = [];
    for await (const chunk of object.stream) chunks.push(chunk as Buffer);
    const marked = await markPicture(Buffer.concat(chunks), issued, file.contentType);
    await cache.put(key, marked).catch((error: unknown) => deps.log.warn({ err: error }, 'could not keep a marked picture'));
    pictureMarks.inc({ outcome: 'rendered' });
    return marked;
  };

  return {
    async serve(req, res, file, mark, label) {
      // what the copy depends on: the file, the viewer, the post's and the settings' last change
      const key = createHash('sha256').update(`${file.fileId}\n${mark.viewerId}\n${mark.version}`).digest('hex');
      let bytes: Buffer;
      try {
        let pending = drawing.get(key);
        if (!pending) {
          pending = limiter.run(mark.viewerId, () => draw(key, file, mark, label));
          drawing.set(key, pending);
          void pending.finally(() => drawing.delete(key)).catch(() => undefined);
        }
        bytes = await pending;
      } catch (error) {
        if (error instanceof LimiterFullError) {
          res.setHeader('Retry-After', '2');
          return refuseMedia(res, 429, { message: 'Too many requests', code: 'TOO_MANY_REQUESTS' });
        }
        throw error;
      }
      serveBytes(req, res, file, bytes, `"m-${key.slice(0, 32)}"`);
    },
  };
}
