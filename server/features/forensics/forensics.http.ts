import { Router, type Response } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LEAK_MAX_BYTES, TRACE_TEXTS } from '../../../common/forensics';
import { readId } from '../../../common/ids';
import type { AppDeps } from '../../../core/deps';
import { dispatchOutbox } from '../../../core/outbox/outbox';
import { insertTrace } from '../../../domain/forensics/traces.queries';
import { sessionUserOf } from '../../http/session-user';
import { traceAccess } from './forensics.service';

function refuse(res: Response, status: number, message: string) {
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error: { message } });
}

class TooLarge extends Error {}

/** Where an uploaded leak waits for its trace (removed once answered). */
export const leakKey = (traceId: string) => `forensics/${traceId}/leak`;

/**
 * POST /forensics/posts/:postId/traces (body: the suspected leak's bytes; the CSRF guard in app.ts
 * has checked the Origin, the write budget `leakTrace` has counted it): a trace of the post, asked
 * by its creator or an admin (404 no such post, 403 anyone else, 401 signed out). The body is
 * streamed to a temporary file, hashed on the way and cut off past LEAK_MAX_BYTES (413); it is
 * never opened here (the worker sniffs, bounds and decodes it). Stored, then the trace's row and
 * its job commit together; 202 with the trace's id.
 */
export function forensicsRoutes(deps: AppDeps): Router {
  const router = Router();
  router.post('/forensics/posts/:postId/traces', async (req, res) => {
    const user = await sessionUserOf(deps, req, res);
    if (!user) return refuse(res, 401, 'Not authenticated');
    const postId = readId(req.params.postId);
    const access = postId ? await traceAccess(deps.db, user, postId) : 'not-found';
    if (access === 'not-found') return refuse(res, 404, 'Post not found');
    if (access === 'forbidden') return refuse(res, 403, TRACE_TEXTS.notAllowed);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > LEAK_MAX_BYTES) {
      res.setHeader('Connection', 'close');
      return refuse(res, 413, 'File too large');
    }

    const dir = await mkdtemp(path.join(tmpdir(), 'leak-upload-'));
    try {
      const file = path.join(dir, 'leak');
      const hash = createHash('sha256');
      let bytes = 0;
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          if (bytes > LEAK_MAX_BYTES) return done(new TooLarge());
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(req, count, createWriteStream(file));
      } catch (error) {
        if (error instanceof TooLarge) {
          res.setHeader('Connection', 'close');
          return refuse(res, 413, 'File too large');
        }
        throw error;
      }
      if (bytes === 0) return refuse(res, 400, 'Empty file');
      const traceId = randomUUID();
      const key = leakKey(traceId);
      await deps.storage.put(key, createReadStream(file), 'application/octet-stream');
      const entry = await insertTrace(deps.db, { id: traceId, postId: postId!, position: 0, requestedBy: user.id, fileSha256: hash.digest('hex'), fileBytes: bytes, leakKey: key });
      await dispatchOutbox(deps, [entry]);
      deps.log.info({ traceId, postId, userId: user.id, bytes }, 'leak trace asked');
      res.setHeader('Cache-Control', 'no-store');
      res.status(202).json({ id: traceId });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  return router;
}
