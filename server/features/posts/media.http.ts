import { Router, type Request, type Response } from 'express';
import { readId } from '../../../common/ids';
import { POST_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import { resolveSession } from '../../auth/resolve-session';
import { refuseMedia, serveFile } from '../../http/serve-file';
import { decideMediaRequest } from './media.service';
import { pictureMarker } from './picture-marks';

/**
 * GET /media/:postId/:variant — the only way to a post's stored file. The session is resolved as for
 * every request (resolveSession); the one access rule (domain/access/access.ts) decides:
 * 404 for an unknown post or variant and for a post the viewer may not see, 403 for the full
 * media of a premium post without an active subscription (every variant but 'preview', ranges
 * and downloads included). Served with Range (206/416), ETag (304), Cache-Control (private
 * unless the post is free and its creator public), nosniff, and Content-Disposition
 * (`?download=1`: attachment named `<slug of the post's name>.<ext>`). A paid picture whose creator
 * marks paid pictures is drawn per buyer (picture-marks.ts, docs/media.md).
 */
export function mediaRoutes(deps: AppDeps): Router {
  const router = Router();
  const marker = pictureMarker(deps);
  // a post of several files: `/media/:postId/:position/:variant` for each file but the first, through the same rule
  const serve = async (req: Request, res: Response) => {
    const viewer = (await resolveSession(deps, req.headers.cookie, res))?.user ?? null;
    const viewerId = viewer?.id ?? null;
    // a malformed id is an unknown one (common/ids.ts)
    const postId = readId(req.params.postId);
    const position = readPosition(typeof req.params.position === 'string' ? req.params.position : undefined);
    const decision =
      postId && position !== null
        ? await decideMediaRequest(deps.db, viewerId, postId, String(req.params.variant), position)
        : { outcome: 'not-found' as const };
    if (decision.outcome === 'not-found') return refuseMedia(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
    if (decision.outcome === 'forbidden') {
      const { title, description } = POST_TEXTS.premiumToast;
      return refuseMedia(res, 403, { message: `${title} - ${description}`, title, description, code: 'PREMIUM_CONTENT' });
    }
    // a paid picture marked for this buyer: served from here in every storage mode (never a presigned original)
    if (decision.mark && viewer) return marker.serve(req, res, decision.file, decision.mark, `@${viewer.username}`);
    await serveFile(deps, req, res, decision.file);
  };
  router.get('/media/:postId/:variant', serve);
  router.get('/media/:postId/:position/:variant', serve);
  return router;
}

/** A file's place: absent is the first (0); anything but 1-19 written plainly is an unknown file. */
function readPosition(raw: string | undefined): number | null {
  if (raw === undefined) return 0;
  return /^(1[0-9]?|[2-9])$/.test(raw) ? Number(raw) : null;
}
