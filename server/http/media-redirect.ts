import type { Response } from 'express';
import type { Config } from '../../core/config';
import type { Storage } from '../../core/storage/storage';
import type { MediaFileToServe } from './serve-file';

/**
 * Free media of public creators (`file.shared`): one URL per hour-long window, so a CDN in front of
 * the bucket keeps one copy per window, valid one to two hours; the redirect to it may be kept by
 * any cache for ten minutes (the URL works at least an hour after it is made).
 */
export const SHARED_URL_WINDOW_S = 3600;
const SHARED_URL_TTL_S = 2 * SHARED_URL_WINDOW_S;
const SHARED_REDIRECT_MAX_AGE_S = 600;
const SHARED_OBJECT_CACHE = `public, max-age=${SHARED_URL_WINDOW_S}`;

/**
 * Everything else (premium, pay-per-view, message attachments, media of creators who are not
 * public): a URL of its own per request, valid MEDIA_SIGNED_URL_TTL_S; the redirect is never kept
 * and the object only by the viewer's browser, briefly. A lapse, refund or block stops new
 * redirects at once and old URLs within their lifetime.
 */
const PRIVATE_OBJECT_MAX_AGE_S = 60;

/**
 * With an object store, the media route's answer after its access check: 302 to a presigned GET
 * of the object, whose response headers (type, disposition, caching) are part of the signature.
 * Ranges and seeking go to the store itself (browsers send Range again to the new location), so
 * no media byte passes through this process. The object's origin holds no cookie of the app.
 */
export async function redirectToObject(
  config: Config,
  signedUrl: NonNullable<Storage['signedUrl']>,
  res: Response,
  file: MediaFileToServe,
  disposition: string,
): Promise<void> {
  const common = { contentType: file.contentType, contentDisposition: disposition };
  const location = file.shared
    ? await signedUrl(file.storageKey, { expiresInS: SHARED_URL_TTL_S, windowS: SHARED_URL_WINDOW_S, cacheControl: SHARED_OBJECT_CACHE, ...common })
    : await signedUrl(file.storageKey, {
        expiresInS: config.MEDIA_SIGNED_URL_TTL_S,
        cacheControl: `private, max-age=${Math.min(PRIVATE_OBJECT_MAX_AGE_S, config.MEDIA_SIGNED_URL_TTL_S)}`,
        ...common,
      });
  res.setHeader('Cache-Control', file.shared ? `public, max-age=${SHARED_REDIRECT_MAX_AGE_S}` : 'private, no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.redirect(302, location);
}

/** The origin browsers fetch media from (for the app's Content-Security-Policy), if not the app's own. */
export function mediaOrigins(config: Pick<Config, 'STORAGE_DRIVER' | 'S3_ENDPOINT'>): string[] {
  return config.STORAGE_DRIVER === 's3' && config.S3_ENDPOINT ? [new URL(config.S3_ENDPOINT).origin] : [];
}
