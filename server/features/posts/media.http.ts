import { Router, type Request, type Response } from 'express';
import { readId } from '../../../common/ids';
import { POST_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import { resolveSession } from '../../auth/resolve-session';
import type { PublicVersions } from '../../http/public-data-version';
import { refuseMedia, serveFile } from '../../http/serve-file';
import { decideForRow, isVariant, mediaRows, type MediaDecision } from './media.service';
import { pictureMarker } from './picture-marks';

/**
 * GET /media/:postId/:variant — the only way to a post's stored file. The one access rule
 * (domain/access/access.ts) decides:
 * 404 for an unknown post or variant and for a post the viewer may not see, 403 for the full
 * media of a premium post without an active subscription (every variant but 'preview', ranges
 * and downloads included). Served with Range (206/416), ETag (304), Cache-Control (private
 * unless the post is free and its creator public), nosniff, and Content-Disposition
 * (`?download=1`: attachment named `<slug of the post's name>.<ext>`). A paid picture whose creator
 * marks paid pictures is drawn per buyer (picture-marks.ts, docs/media.md).
 *
 * The session is resolved as for every request (resolveSession: none without a cookie, this copy's
 * session cache otherwise). The rule is first asked for a visitor, which costs no query beyond the
 * post's row (kept in this copy's memory under the public data version: `mediaRows`; read for
 * every request with PUBLIC_CACHE=false). What a visitor may have, everyone may: the rule only ever
 * opens more to a signed-in viewer (their own posts, their entitlements), never less, so only a
 * refusal is asked again for the signed-in viewer, with their entitlements.
 */
export function mediaRoutes(deps: AppDeps, versions: (() => Promise<PublicVersions | null>) | null = null): Router {
  const router = Router();
  const marker = pictureMarker(deps);
  const rowOf = mediaRows(deps.db, versions);
  // a post of several files: `/media/:postId/:position/:variant` for each file but the first, through the same rule
  const serve = async (req: Request, res: Response) => {
    // a malformed id is an unknown one (common/ids.ts)
    const postId = readId(req.params.postId);
    const position = readPosition(typeof req.params.position === 'string' ? req.params.position : undefined);
    const asked = String(req.params.variant);
    const variant = isVariant(asked) ? asked : null;
    const row = postId && position !== null && variant ? await rowOf(postId, variant, position) : undefined;
    // a cookie is resolved whatever the answer: a session near its end renewed, a dead one cleared
    const viewer = (await resolveSession(deps, req.headers.cookie, res))?.user ?? null;
    const viewerId = viewer?.id ?? null;
    // only paid pictures are marked, and a visitor is refused those: a visitor's yes is never a buyer's marked copy
    let decision: MediaDecision = row && variant ? await decideForRow(deps.db, null, row, variant, position ?? 0) : { outcome: 'not-found' };
    if (decision.outcome !== 'ok' && viewerId !== null && row && variant) decision = await decideForRow(deps.db, viewerId, row, variant, position ?? 0);
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
