import { Router, type Response } from 'express';
import { readId } from '../../../common/ids';
import { SECURITY_TEXTS } from '../../../common/security';
import type { AppDeps } from '../../../core/deps';
import { StorageNotFoundError } from '../../../core/storage/storage';
import { pipeToClient } from '../../http/pipe-to-client';
import { sessionUserOf } from '../../http/session-user';

function refuse(res: Response, status: number, message: string) {
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error: { message } });
}

/**
 * GET /exports/<exportId>/download: the "Download my data" zip, to its owner's session only and
 * only until it expires. Anyone else (another user, a visitor, an expired or unknown id) gets the
 * same 404, so an id tells nothing; a visitor is asked to sign in first (401).
 */
export function exportDownloadRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/exports/:exportId/download', async (req, res) => {
    const user = await sessionUserOf(deps, req, res);
    if (!user) return refuse(res, 401, 'Not authenticated');
    const exportId = readId(req.params.exportId);
    if (!exportId) return refuse(res, 404, SECURITY_TEXTS.exportNotFound);
    const row = await deps.db
      .selectFrom('data_exports')
      .select(['storage_key', 'created_at'])
      .where('id', '=', exportId)
      .where('user_id', '=', user.id)
      .where('status', '=', 'ready')
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
    if (!row?.storage_key) return refuse(res, 404, SECURITY_TEXTS.exportNotFound);
    try {
      const object = await deps.storage.get(row.storage_key);
      const day = row.created_at.toISOString().slice(0, 10);
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Length', String(object.size));
      res.setHeader('Content-Disposition', `attachment; filename="my-data-${user.username}-${day}.zip"`);
      res.setHeader('Cache-Control', 'private, no-store');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      await pipeToClient(object.stream, res);
    } catch (error) {
      if (error instanceof StorageNotFoundError) return refuse(res, 404, SECURITY_TEXTS.exportNotFound);
      throw error;
    }
  });
  return router;
}
