import express, { Router, type ErrorRequestHandler, type Response } from 'express';
import { fileTypeFromBuffer } from 'file-type';
import { randomUUID } from 'node:crypto';
import { processAvatarJobId } from '../../../common/jobs';
import { LIMITS } from '../../../common/limits';
import { readId } from '../../../common/ids';
import { AVATAR_TYPES, AVATAR_UPLOAD_PATH, avatarIncomingKey, avatarKey } from '../../../common/settings';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import type { AppDeps } from '../../../core/deps';
import { addToOutbox, dispatchOutbox } from '../../../core/outbox/outbox';
import { StorageNotFoundError } from '../../../core/storage/storage';
import { pipeToClient } from '../../http/pipe-to-client';
import { sessionUserOf } from '../../http/session-user';
import { setAvatarPending } from './settings.queries';

const MIME: Record<(typeof AVATAR_TYPES)[number], string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' };

function refuse(res: Response, status: number, message: string, description?: string) {
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error: { message, ...(description ? { description } : {}) } });
}

/**
 * POST /avatar (body: the image's bytes; the CSRF guard in app.ts has checked the Origin) and
 * GET /avatars/<userId>/<uploadId>.webp.
 *
 * The upload is judged by its bytes, never by its name or declared type: under 5 MB (413 'File
 * too large') and a JPEG, PNG, WebP or GIF signature (415 'Invalid file type'). It is stored as it
 * came, the profile notes it as pending, and a `process-avatar` job on the media queue re-encodes
 * it square without metadata (worker/jobs/avatar.ts); the answer (202) does not wait for that.
 * Only what the worker wrote is ever served: the incoming bytes never are.
 */
export function avatarRoutes(deps: AppDeps): Router {
  const router = Router();
  router.post(
    AVATAR_UPLOAD_PATH,
    async (req, res, next) => {
      const user = await sessionUserOf(deps, req, res);
      if (!user) return refuse(res, 401, 'Not authenticated');
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared >= LIMITS.avatarBytes) return refuse(res, 413, SETTINGS_TEXTS.fileTooLarge, SETTINGS_TEXTS.avatarTooLargeHint);
      res.locals.userId = user.id;
      next();
    },
    express.raw({ type: () => true, limit: LIMITS.avatarBytes }),
    async (req, res) => {
      const userId = res.locals.userId as string;
      const body: unknown = req.body;
      if (!Buffer.isBuffer(body) || body.length === 0) return refuse(res, 415, SETTINGS_TEXTS.invalidFileType, SETTINGS_TEXTS.avatarInvalidHint);
      if (body.length >= LIMITS.avatarBytes) return refuse(res, 413, SETTINGS_TEXTS.fileTooLarge, SETTINGS_TEXTS.avatarTooLargeHint);
      const type = await fileTypeFromBuffer(body);
      const ext = AVATAR_TYPES.find((t) => t === type?.ext);
      if (!ext) return refuse(res, 415, SETTINGS_TEXTS.invalidFileType, SETTINGS_TEXTS.avatarInvalidHint);

      const uploadId = randomUUID();
      await deps.storage.put(avatarIncomingKey(userId, uploadId), body, MIME[ext]);
      // the pending mark and the job's outbox row commit together (Redis away: the relay queues it)
      const job = await deps.db.transaction().execute(async (trx) => {
        await setAvatarPending(trx, userId, uploadId);
        return addToOutbox(trx, { queue: 'media', name: 'process-avatar', data: { userId, uploadId }, jobId: processAvatarJobId(uploadId) });
      });
      await dispatchOutbox(deps, [job]);
      res.setHeader('Cache-Control', 'no-store');
      res.status(202).json({ pending: true });
    },
  );

  router.get('/avatars/:userId/:file', async (req, res) => {
    const userId = readId(req.params.userId);
    const uploadId = readId(/^(.*)\.webp$/.exec(String(req.params.file))?.[1]);
    if (!userId || !uploadId) return refuse(res, 404, 'Not found');
    try {
      const object = await deps.storage.get(avatarKey(userId, uploadId));
      res.setHeader('Content-Type', 'image/webp');
      res.setHeader('Content-Length', String(object.size));
      // the key names one upload: its bytes never change
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable, no-transform');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'");
      await pipeToClient(object.stream, res);
    } catch (error) {
      if (error instanceof StorageNotFoundError) return refuse(res, 404, 'Not found');
      throw error;
    }
  });
  // a body past the limit without a Content-Length (chunked): the parser's 413, in our words
  router.use(((error, req, res, next) => {
    if (req.path === AVATAR_UPLOAD_PATH && (error as { status?: number }).status === 413) {
      return refuse(res, 413, SETTINGS_TEXTS.fileTooLarge, SETTINGS_TEXTS.avatarTooLargeHint);
    }
    next(error);
  }) satisfies ErrorRequestHandler);
  return router;
}
