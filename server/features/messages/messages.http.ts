import { Router, type Response } from 'express';
import { readId } from '../../../common/ids';
import { MESSAGE_ATTACHMENT_UPLOAD_PATH } from '../../../common/messages';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { resolveSession } from '../../auth/resolve-session';
import type { AppDeps } from '../../../core/deps';
import { canSeeMessageMedia, canSeeMessagePreview } from '../../../domain/access/messaging';
import { attachmentPreviewKey } from '../../../domain/messaging/attachments';
import { AttachmentRefusal, receiveAttachment } from './attachments.service';
import { reportEvidence } from './reports.service';
import { serveFile } from '../../http/serve-file';
import { sessionUserOf } from '../../http/session-user';

/**
 * Chat attachments over plain HTTP (issue 12):
 *   POST /message-attachments?name=<file name>  the raw file as the body (XHR: upload progress);
 *        201 { attachment }, or { error: { code, message } } with 401 'Not authenticated',
 *        413 'File size must be less than 10MB', 415 'Invalid file type', 429, 503.
 *   GET  /media/messages/:attachmentId  the processed file, only to its uploader and the two
 *        participants of the message carrying it (domain/access/messaging.ts): 403 to anyone
 *        else, 404 while processing or unknown; Range, ETag, private caching, nosniff.
 *   GET  /media/messages/:attachmentId/preview  its blurred preview (the worker's, a JPEG): to the
 *        same people and to a pay-per-view message's recipient before buying; 404 when it has none.
 * Mounted before the posts' /media route, after the Origin check (which the POST passes).
 */
export function messageMediaRoutes(deps: AppDeps): Router {
  const router = Router();

  router.post(MESSAGE_ATTACHMENT_UPLOAD_PATH, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      const user = await sessionUserOf(deps, req, res);
      if (!user) throw new AttachmentRefusal(401, 'UNAUTHORIZED', MESSAGE_TEXTS.notAuthenticated);
      const length = req.get('content-length');
      const attachment = await receiveAttachment(deps, user.id, {
        name: typeof req.query.name === 'string' ? req.query.name : undefined,
        declaredLength: length !== undefined && /^\d+$/.test(length) ? Number(length) : null,
        body: req,
      });
      res.status(201).json({ attachment });
    } catch (error) {
      if (!(error instanceof AttachmentRefusal)) {
        deps.log.error({ err: error }, 'message attachment upload failed');
        return refuse(res, 500, 'INTERNAL', MESSAGE_TEXTS.sendFailed);
      }
      if (error.retryAfterSeconds) res.setHeader('Retry-After', String(error.retryAfterSeconds));
      // a refused body is not read: close the connection rather than drain up to 10 MB
      if (!req.readableEnded) res.setHeader('Connection', 'close');
      refuse(res, error.status, error.code, error.message);
    }
  });

  router.get('/media/messages/:attachmentId', async (req, res) => {
    const viewerId = (await resolveSession(deps, req.headers.cookie, res))?.user.id ?? null;
    // a malformed id is an unknown one (common/ids.ts)
    const attachmentId = readId(req.params.attachmentId);
    const decision = attachmentId ? await canSeeMessageMedia(deps.db, viewerId, attachmentId) : { outcome: 'not-found' as const };
    if (decision.outcome === 'not-found') return refuse(res, 404, 'NOT_FOUND', 'Not found');
    if (decision.outcome === 'forbidden') return refuse(res, 403, 'FORBIDDEN', 'Forbidden');
    const { file } = decision;
    await serveFile(deps, req, res, {
      fileId: file.attachmentId,
      postId: file.attachmentId,
      storageKey: file.storageKey,
      contentType: file.contentType,
      byteSize: file.byteSize,
      name: file.fileName.replace(/\.[^.]+$/, ''),
      shared: false,
    });
  });
  // a pay-per-view file's blurred preview: also to its recipient before buying it
  router.get('/media/messages/:attachmentId/preview', async (req, res) => {
    const viewerId = (await resolveSession(deps, req.headers.cookie, res))?.user.id ?? null;
    const attachmentId = readId(req.params.attachmentId);
    const decision = attachmentId ? await canSeeMessagePreview(deps.db, viewerId, attachmentId) : { outcome: 'not-found' as const };
    if (decision.outcome === 'not-found') return refuse(res, 404, 'NOT_FOUND', 'Not found');
    if (decision.outcome === 'forbidden') return refuse(res, 403, 'FORBIDDEN', 'Forbidden');
    const key = attachmentPreviewKey(decision.file.storageKey);
    // a file processed before previews were made has none: the thread keeps its stand-in
    const stored = await deps.storage.stat(key);
    if (!stored) return refuse(res, 404, 'NOT_FOUND', 'Not found');
    await serveFile(deps, req, res, {
      fileId: `${decision.file.attachmentId}-preview`,
      postId: decision.file.attachmentId,
      storageKey: key,
      contentType: 'image/jpeg',
      byteSize: stored.size,
      name: 'preview',
      shared: false,
    });
  });
  // a report's copy of the reported file: admins only (the sender never reaches it)
  router.get('/media/reports/:reportId', async (req, res) => {
    const viewer = (await resolveSession(deps, req.headers.cookie, res))?.user ?? null;
    if (!viewer) return refuse(res, 401, 'UNAUTHORIZED', MESSAGE_TEXTS.notAuthenticated);
    if (viewer.role !== 'admin') return refuse(res, 403, 'FORBIDDEN', 'Forbidden');
    const reportId = readId(req.params.reportId);
    const file = reportId && (await reportEvidence(deps, reportId));
    const stored = file && (await deps.storage.stat(file.storageKey));
    if (!file || !stored) return refuse(res, 404, 'NOT_FOUND', 'Not found');
    await serveFile(deps, req, res, {
      fileId: file.id,
      postId: file.id,
      storageKey: file.storageKey,
      contentType: file.contentType,
      byteSize: stored.size,
      name: file.name.replace(/\.[^.]+$/, ''),
      shared: false,
    });
  });
  return router;
}

function refuse(res: Response, status: number, code: string, message: string) {
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error: { code, message } });
}
