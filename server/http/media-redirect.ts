import type { Response } from 'express';
import type { Config } from '../../core/config';
import type { Storage } from '../../core/storage/storage';
import type { MediaFileToServe } from './serve-file';

/**
 * Free media of public creators (`file.shared`): one URL per window of half MEDIA_SIGNED_URL_TTL_S
 * (60 s by default), signed as of the window's start and valid MEDIA_SIGNED_URL_TTL_S, so everyone
 * asking in one window gets the same URL (one copy at a CDN in front of the bucket, and in a
 * browser) with at least half its lifetime left. A URL handed out is a bearer's key to the object
 * until it expires: when the post turns premium or private (its objects keep their keys) the last
 * URL stops within MEDIA_SIGNED_URL_TTL_S of the change, as premium URLs do. It used to be an
 * hour-long window valid two hours, so a post made premium stayed readable that long.
 *
 * The redirect to it may be kept by any cache for a quarter of the lifetime (so the URL it names
 * still has a quarter left when a kept copy is followed), and must be asked for again after; the
 * object by a CDN in front of the bucket for half (it must ask the bucket again after, which
 * refuses an expired URL). A free post whose access ends is therefore out of every cache within
 * 1.5 x MEDIA_SIGNED_URL_TTL_S (docs/operations.md).
 */
export function sharedUrlTimes(config: Pick<Config, 'MEDIA_SIGNED_URL_TTL_S'>) {
  const ttlS = config.MEDIA_SIGNED_URL_TTL_S;
  return { expiresInS: ttlS, windowS: ttlS / 2, redirectMaxAgeS: Math.floor(ttlS / 4), objectMaxAgeS: Math.floor(ttlS / 2) };
}

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
  /** may a shared cache keep the redirect (serve-file.ts `sharedAnswer`: no session on the request, no cookie set) */
  sharedAnswer: boolean,
): Promise<void> {
  const common = { contentType: file.contentType, contentDisposition: disposition };
  const shared = sharedUrlTimes(config);
  // a free post's URL is the window's one whoever asks (a session or not): it names only the object
  const location = file.shared
    ? await signedUrl(file.storageKey, {
        expiresInS: shared.expiresInS,
        windowS: shared.windowS,
        cacheControl: `public, max-age=${shared.objectMaxAgeS}, proxy-revalidate`,
        ...common,
      })
    : await signedUrl(file.storageKey, {
        expiresInS: config.MEDIA_SIGNED_URL_TTL_S,
        cacheControl: `private, max-age=${Math.min(PRIVATE_OBJECT_MAX_AGE_S, config.MEDIA_SIGNED_URL_TTL_S)}`,
        ...common,
      });
  res.setHeader(
    'Cache-Control',
    !file.shared ? 'private, no-store' : sharedAnswer ? `public, max-age=${shared.redirectMaxAgeS}, proxy-revalidate` : `private, max-age=${shared.redirectMaxAgeS}`,
  );
  res.setHeader('Referrer-Policy', 'no-referrer');
  // no body: Express's res.redirect negotiates one (HTML or text naming the URL) that no client reads
  res.statusCode = 302;
  res.setHeader('Location', location);
  res.setHeader('Content-Length', '0');
  res.end();
}

/** The origin browsers fetch media from (for the app's Content-Security-Policy), if not the app's own. */
export function mediaOrigins(config: Pick<Config, 'STORAGE_DRIVER' | 'S3_ENDPOINT'>): string[] {
  return config.STORAGE_DRIVER === 's3' && config.S3_ENDPOINT ? [new URL(config.S3_ENDPOINT).origin] : [];
}
