import { Router, type Request, type Response } from 'express';
import { readId } from '../../../common/ids';
import { ladderKey } from '../../../common/ladder';
import { POST_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import { markBit } from '../../../domain/forensics/code';
import { findLadder } from '../../../domain/streaming/ladders.queries';
import { issueRecorder } from './forensic-issues';
import { resolveSession } from '../../auth/resolve-session';
import { fileUrlFor, noStore, playlistRoutes, sendLadderFile, type PlaylistAccess } from '../../http/hls-playlists';
import { ANONYMOUS_VIEWER, checkSegment, segmentUrl } from '../../http/segment-urls';
import { refuseMedia } from '../../http/serve-file';
import { decideMediaRequest } from './media.service';

/**
 * Adaptive streaming of a post's video (docs/media.md), beside the MP4 of /media:
 *
 * - `GET /hls/:postId/:position/master.m3u8`, `/:rendition.m3u8`, `/thumbs.vtt`: made for the
 *   viewer on each request, after the same access rule as every media URL (decideMediaRequest on
 *   the 'original': 404 unknown or not visible, 403 premium without entitlement, 404 no ladder
 *   yet: the player plays the MP4). A fan whose subscription ends or whose unlock is refunded gets
 *   403 at the next fetch. Never cached.
 * - `GET /hls/:postId/:position/s/<file>?u=&e=&s=`: one file of the ladder, for the URL's viewer
 *   until its expiry (segment-urls.ts): 403 for a bad signature, an expired URL, or a session that
 *   is not the viewer named (a URL copied to another browser or user). The access rule is not
 *   asked again per segment: the playlist that listed it was, minutes ago at most.
 */
export function hlsRoutes(deps: AppDeps): Router {
  const router = Router();
  const issues = issueRecorder(deps.db);

  /** The access check of every playlist; answers the refusal itself and returns null then. */
  const allowed = async (req: Request, res: Response): Promise<PlaylistAccess | null> => {
    noStore(res);
    const viewerId = (await resolveSession(deps, req.headers.cookie, res))?.user.id ?? null;
    const postId = readId(req.params.postId);
    const position = readPosition(String(req.params.position));
    const decision = postId && position !== null ? await decideMediaRequest(deps.db, viewerId, postId, 'original', position) : { outcome: 'not-found' as const };
    if (decision.outcome === 'forbidden') {
      const { title, description } = POST_TEXTS.premiumToast;
      refuseMedia(res, 403, { message: `${title} - ${description}`, title, description, code: 'PREMIUM_CONTENT' });
      return null;
    }
    const ladder = decision.outcome === 'ok' ? await findLadder(deps.db, postId!, position!) : null;
    if (!ladder) {
      refuseMedia(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
      return null;
    }
    const viewer = viewerId ?? ANONYMOUS_VIEWER;
    // a paid video's viewer other than its owner gets their own mix of variants A and B
    const markedFor = decision.outcome === 'ok' && decision.marked && viewerId !== null && viewerId !== decision.creatorId ? viewerId : null;
    return {
      ...(markedFor
        ? {
            marked: {
              variantOf: (segment: number) => (markBit(deps.config.forensicKey, { postId: postId!, position: position!, viewerId: markedFor, segment }) === 1 ? 'b' : 'a'),
              issued: () => issues.record(postId!, markedFor),
            },
          }
        : {}),
      ladder,
      fileUrl: fileUrlFor({ storage: deps.storage, ttlS: deps.config.HLS_URL_TTL_S, nowMs: deps.clock.now().getTime() }, (file, expires) =>
        segmentUrl(deps.config.mediaUrlKey, { viewer, postId: postId!, position: position!, file, expires }),
      ),
      mediaPlaylistUrl: (name) => `/hls/${postId}/${position}/${name}.m3u8`,
    };
  };
  playlistRoutes(router, '/hls/:postId/:position', allowed);

  const segment = async (req: Request, res: Response) => {
    noStore(res);
    const postId = readId(req.params.postId);
    const position = readPosition(String(req.params.position));
    const file = req.params.rendition ? `${String(req.params.rendition)}/${String(req.params.file)}` : String(req.params.file);
    const { u, e, s } = req.query;
    if (!postId || position === null || typeof u !== 'string' || typeof e !== 'string' || typeof s !== 'string' || !/^\d{1,12}$/.test(e)) {
      return refuseMedia(res, 403, { message: 'Forbidden', code: 'FORBIDDEN' });
    }
    const claim = { viewer: u, postId, position, file, expires: Number(e) };
    const nowS = Math.floor(deps.clock.now().getTime() / 1000);
    const check = checkSegment(deps.config.mediaUrlKey, claim, s, nowS);
    if (check !== 'ok') return refuseMedia(res, 403, { message: check === 'expired' ? 'Link expired' : 'Forbidden', code: 'FORBIDDEN' });
    // named for a signed-in viewer: only that viewer's session may use it
    if (u !== ANONYMOUS_VIEWER) {
      const session = await resolveSession(deps, req.headers.cookie, res);
      if (session?.user.id !== u) return refuseMedia(res, 403, { message: 'Forbidden', code: 'FORBIDDEN' });
    }
    await sendLadderFile(deps.storage, res, file, ladderKey(postId, position, file), claim.expires - nowS);
  };
  router.get('/hls/:postId/:position/s/:rendition/:file', segment);
  router.get('/hls/:postId/:position/s/:file', segment);
  return router;
}

/** A file's place: 0-19 written plainly. */
function readPosition(raw: string): number | null {
  return /^(0|1[0-9]?|[2-9])$/.test(raw) ? Number(raw) : null;
}
