import { Router, type Request, type Response } from 'express';
import { readId } from '../../../common/ids';
import type { AppDeps } from '../../../core/deps';
import { canSeeMessageMedia } from '../../../domain/access/messaging';
import { findAttachmentLadder } from '../../../domain/messaging/attachment-ladders';
import { attachmentLadderKey } from '../../../domain/messaging/attachments';
import { resolveSession } from '../../auth/resolve-session';
import { fileUrlFor, noStore, playlistRoutes, sendLadderFile, type PlaylistAccess } from '../../http/hls-playlists';
import { checkMessageSegment, messageSegmentUrl } from '../../http/segment-urls';
import { refuseMedia } from '../../http/serve-file';

/**
 * Adaptive streaming of a chat video (issue 49 item 1, docs/media.md), beside its MP4 at
 * /media/messages/:id, under the same rule (canSeeMessageMedia: the uploader and the two
 * participants, a pay-per-view message's recipient once bought; 403 to anyone else, signed out
 * included; 404 unknown, not ready, or no ladder yet: the bubble plays the MP4):
 *
 * - `GET /media/messages/:id/hls/master.m3u8`, `/:rendition.m3u8`, `/thumbs.vtt`: made for the
 *   viewer on each request after that rule, never cached;
 * - `GET /media/messages/:id/hls/s/<file>?u=&e=&s=`: one file of the ladder for the URL's viewer
 *   until its expiry (segment-urls.ts, a signature of its own kind): 403 for a bad signature, an
 *   expired URL, or a session that is not the viewer named.
 */
export function messageHlsRoutes(deps: AppDeps): Router {
  const router = Router();
  const base = '/media/messages/:attachmentId/hls';

  const allowed = async (req: Request, res: Response): Promise<PlaylistAccess | null> => {
    noStore(res);
    const viewerId = (await resolveSession(deps, req.headers.cookie, res))?.user.id ?? null;
    const attachmentId = readId(req.params.attachmentId);
    const decision = attachmentId ? await canSeeMessageMedia(deps.db, viewerId, attachmentId) : { outcome: 'not-found' as const };
    if (decision.outcome === 'forbidden') {
      refuseMedia(res, 403, { message: 'Forbidden', code: 'FORBIDDEN' });
      return null;
    }
    const ladder = decision.outcome === 'ok' && viewerId ? await findAttachmentLadder(deps.db, attachmentId!) : null;
    if (!ladder) {
      refuseMedia(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
      return null;
    }
    return {
      ladder,
      fileUrl: fileUrlFor({ storage: deps.storage, ttlS: deps.config.HLS_URL_TTL_S, nowMs: deps.clock.now().getTime() }, (file, expires) =>
        messageSegmentUrl(deps.config.mediaUrlKey, { viewer: viewerId!, attachmentId: attachmentId!, file, expires }),
      ),
      mediaPlaylistUrl: (name) => `/media/messages/${attachmentId}/hls/${name}.m3u8`,
    };
  };
  playlistRoutes(router, base, allowed);

  const segment = async (req: Request, res: Response) => {
    noStore(res);
    const attachmentId = readId(req.params.attachmentId);
    const file = req.params.rendition ? `${String(req.params.rendition)}/${String(req.params.file)}` : String(req.params.file);
    const { u, e, s } = req.query;
    if (!attachmentId || typeof u !== 'string' || typeof e !== 'string' || typeof s !== 'string' || !/^\d{1,12}$/.test(e)) {
      return refuseMedia(res, 403, { message: 'Forbidden', code: 'FORBIDDEN' });
    }
    const claim = { viewer: u, attachmentId, file, expires: Number(e) };
    const nowS = Math.floor(deps.clock.now().getTime() / 1000);
    const check = checkMessageSegment(deps.config.mediaUrlKey, claim, s, nowS);
    if (check !== 'ok') return refuseMedia(res, 403, { message: check === 'expired' ? 'Link expired' : 'Forbidden', code: 'FORBIDDEN' });
    // only the session of the viewer named: a URL copied to another browser or user is refused
    const session = await resolveSession(deps, req.headers.cookie, res);
    if (session?.user.id !== u) return refuseMedia(res, 403, { message: 'Forbidden', code: 'FORBIDDEN' });
    await sendLadderFile(deps.storage, res, file, attachmentLadderKey(attachmentId, file), claim.expires - nowS);
  };
  router.get(`${base}/s/:rendition/:file`, segment);
  router.get(`${base}/s/:file`, segment);
  return router;
}
