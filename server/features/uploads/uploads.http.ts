import { EVENTS, Metadata, Server, type DataStore, type Upload } from '@tus/server';
import { Router, type Request, type Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { UPLOAD_TEXTS } from '../../../common/texts';
import { MAX_UPLOAD_BYTES, UPLOAD_POST_ID_HEADER } from '../../../common/uploads';
import type { SessionUser } from '../../../core/sessions/resolved-session';
import type { AppDeps } from '../../../core/deps';
import { unavailableDependency } from '../../../core/dependency-errors';
import { findFinishedUpload } from './uploads.queries';
import {
  checkNewUpload,
  checkMaySellPost,
  checkProcessingRoom,
  finishUpload,
  storedMetadata,
  UploadRefusal,
  type FinishResult,
} from './uploads.service';
import { httpErrorAnswer } from '../../trpc/errors';
import { incomingUploads } from './incoming-uploads';
import { sessionUserOf } from '../../http/session-user';
import { RedisLocker } from './tus-redis-locker';

export const UPLOAD_PATH = '/uploads';
/** How long a PATCH refused for want of Redis may take to send the rest of its chunk before its 503. */
const REFUSED_CHUNK_READ_MS = 10_000;

/**
 * Reads what is left of a request's body and drops it (at most `maxMs`). A PATCH refused before
 * its chunk was read (its lock is in Redis, and Redis is known down, so the refusal comes at once)
 * is answered after the chunk has arrived: tus closes the connection after a refused PATCH, and a
 * client still sending would see the connection cut (EPIPE, no answer: retried for 40 s only)
 * instead of the 503 the web app keeps retrying for 5 minutes (src/features/uploads/upload-retry.ts).
 */
function discardRestOfBody(node: IncomingMessage, maxMs: number): Promise<void> {
  if (node.readableEnded || node.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      node.off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    node.on('end', done).on('close', done).on('error', done);
    node.resume();
  });
}
/** tus upload ids (the default naming: 16 random bytes in hex). */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const TUS_VERSION = '1.0.0';

/**
 * The tus endpoint (resumable uploads, tus 1.0: creation, creation-with-upload, expiration,
 * termination) for post uploads, on @tus/server with a file store in UPLOADS_DIR, or in the
 * bucket with STORAGE_DRIVER=s3 (incoming-uploads.ts); nothing serves either. Before tus sees a request:
 *   - the session cookie must belong to a creator: 401 'Please sign in to upload content',
 *     403 'Only creators can upload content' (every request of an upload, not just the first);
 *   - POST: the declared length and the metadata are checked (server/features/uploads): 400,
 *     415 'Invalid file type', 413 'File too large' / 'Maximum file size is {n}MB'; and a creator
 *     with MAX_PROCESSING_POSTS_PER_CREATOR posts still processing gets 429 'Too many uploads
 *     processing' (checked again at the finish, which keeps the bytes for a later try);
 *   - HEAD/PATCH/DELETE /uploads/<id>: only the user who created the upload (403 otherwise);
 *   - GET is refused: incoming files are never served.
 * State-changing requests also pass the app's Origin check (server/http/csrf.ts), which a
 * same-origin browser upload satisfies.
 *
 * When the last byte arrives, the upload becomes a post (finishUpload) and the response carries
 * its id in `Upload-Post-Id`; the incoming file is then deleted. A finished upload still answers
 * HEAD (offset = length, so a client that lost the last response sees it complete instead of
 * starting again) and an idempotent final PATCH, from the `uploads` table. A complete upload
 * whose finish never ran (the server died in between) is finished by the next HEAD.
 *
 * Refusals are JSON: `{ "error": { "code", "message", "title", "description"? } }`.
 *
 * The lock between concurrent requests on one upload lives in Redis (tus-redis-locker.ts), so with
 * several server copies the requests of one upload may reach any copy (no sticky routing);
 * with disk storage UPLOADS_DIR must then be a volume every copy sees (with S3, the bucket is
 * all they share). While Redis is unreachable
 * HEAD still answers (the offset is the file on disk) and PATCH answers 503, which the web app's
 * client retries on the same upload. `drain()` (on shutdown) makes the PATCHes in flight stop
 * reading and answer with the offset they reached, so their clients resume on another copy. The finish links the
 * received file into disk storage (no copy, whatever its size) when both are on one filesystem,
 * and copies it inside the store with S3.
 */
export function uploadRoutes(deps: AppDeps): { router: Router; tus: Server; datastore: DataStore; drain(): void } {
  const { config, log } = deps;
  // UPLOADS_DIR, or the object store with STORAGE_DRIVER=s3 (incoming-uploads.ts)
  const incoming = incomingUploads(config, deps.storage);
  const { datastore } = incoming;
  const uploaders = new WeakMap<IncomingMessage, SessionUser>();

  const userOf = (req: unknown): SessionUser => {
    const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    const user = node ? uploaders.get(node) : undefined;
    if (!user) throw new UploadRefusal(401, 'UNAUTHORIZED', UPLOAD_TEXTS.signInRequired);
    return user;
  };

  const removeIncoming = (id: string) =>
    incoming.remove(id).catch((error: unknown) => log.warn({ err: error, uploadId: id }, 'could not remove a finished incoming upload'));

  /** The finish of a complete tus upload: the received bytes become a post. */
  const finish = async (upload: Upload, userId: string): Promise<FinishResult> => {
    try {
      return await finishUpload(deps, {
        uploadId: upload.id,
        userId,
        metadata: upload.metadata ?? {},
        declaredSize: upload.size ?? -1,
        ...(await incoming.received(upload)),
      });
    } catch (error) {
      // bytes that can never become a post are not kept
      if (error instanceof UploadRefusal && (error.status === 413 || error.status === 409)) await removeIncoming(upload.id);
      throw error;
    }
  };

  // shared by every server copy: the requests of one upload may reach any of them
  const locker = new RedisLocker(deps.redis, config.REDIS_PREFIX);
  const tus = new Server({
    path: UPLOAD_PATH,
    datastore,
    // a HEAD is answered from the upload folder even while Redis is unreachable, so a client
    // resumes the same upload after an outage instead of starting another one
    locker: (req) => (req.method === 'HEAD' ? locker.forRead : locker),
    maxSize: MAX_UPLOAD_BYTES,
    relativeLocation: true,
    allowedOrigins: (origin) => origin === new URL(config.appUrl).origin,
    allowedCredentials: true,
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(req, upload) {
      const user = userOf(req);
      const { meta } = checkNewUpload({ uploadLength: String(upload.size ?? ''), deferLength: null, metadata: upload.metadata, now: deps.clock.now() });
      // the stored metadata is rebuilt from the checked values: a client cannot set userId
      return { metadata: storedMetadata(meta, user.id) };
    },
    async onUploadFinish(req, upload) {
      const result = await finish(upload, userOf(req).id);
      const headers: Record<string, string> = {};
      if (result.postId) headers[UPLOAD_POST_ID_HEADER] = result.postId;
      return { headers };
    },
    async onResponseError(req, error) {
      if (error instanceof UploadRefusal) return { status_code: error.status, body: JSON.stringify(error.toJSON()) };
      if ('status_code' in error && (error.status_code === 404 || error.status_code === 410) && req.method === 'PATCH') {
        // a PATCH that waited for the lock while another request (on any copy) finished the upload
        // and removed its incoming file: the upload is done, so the same answer as a late PATCH gets
        const id = new URL(req.url).pathname.split('/').pop() ?? '';
        if (UPLOAD_ID.test(id) && (await findFinishedUpload(deps.db, id))) {
          const late = latePatchRefusal();
          return { status_code: late.status, body: JSON.stringify(late.toJSON()) };
        }
      }
      if ('status_code' in error) {
        // tus's own refusals, with fixed words
        if (error.status_code >= 500) log.error({ err: error }, 'upload request failed');
        return undefined;
      }
      // anything else would be answered with its own text (a database's or a file system's words)
      const answer = httpErrorAnswer(error);
      if (req.method === 'PATCH' && unavailableDependency(error) === 'redis') {
        const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
        if (node) await discardRestOfBody(node, REFUSED_CHUNK_READ_MS);
      }
      if (answer.status >= 500) log.error({ err: error }, 'upload request failed');
      return { status_code: answer.status, body: JSON.stringify(answer.body) };
    },
  });
  tus.on(EVENTS.POST_FINISH, (_req, _res, upload) => void removeIncoming(upload.id));

  const router = Router();
  router.all([UPLOAD_PATH, `${UPLOAD_PATH}/:id`], async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    // CORS preflight: same-origin uploads never send one; tus answers it with our origin only
    if (req.method === 'OPTIONS') return void (await tus.handle(req, res));
    try {
      const user = await sessionUserOf(deps, req, res);
      if (!user) throw new UploadRefusal(401, 'UNAUTHORIZED', UPLOAD_TEXTS.signInRequired);
      if (!user.isCreator) throw new UploadRefusal(403, 'FORBIDDEN', UPLOAD_TEXTS.creatorsOnly);
      const id = typeof req.params.id === 'string' ? req.params.id : null;

      if (req.method === 'GET' || (req.method === 'POST' && id) || (!id && req.method !== 'POST')) {
        throw new UploadRefusal(405, 'METHOD_NOT_ALLOWED', UPLOAD_TEXTS.uploadFailed, 'Method not allowed');
      }
      if (!id) {
        let metadata: Record<string, string | null> | undefined;
        try {
          metadata = Metadata.parse(req.get('upload-metadata') ?? undefined);
        } catch {
          throw new UploadRefusal(400, 'INVALID_METADATA', UPLOAD_TEXTS.invalidMetadata);
        }
        const { meta } = checkNewUpload({ uploadLength: req.get('upload-length') ?? null, deferLength: req.get('upload-defer-length') ?? null, metadata, now: deps.clock.now() });
        if (meta.unlockPrice !== undefined) await checkMaySellPost(deps, user.id);
        await checkProcessingRoom(deps, user.id);
        uploaders.set(req, user);
        return void (await tus.handle(req, res));
      }

      if (!UPLOAD_ID.test(id)) throw new UploadRefusal(404, 'NOT_FOUND', UPLOAD_TEXTS.uploadFailed, 'Upload not found');
      const finished = await findFinishedUpload(deps.db, id);
      if (finished) return answerFinished(req, res, finished, user.id);
      const upload = await datastore.getUpload(id).catch(() => null);
      if (!upload) {
        // another request (on any copy) may have finished it, and removed its incoming file, since the read above
        const finishedSince = await findFinishedUpload(deps.db, id);
        if (finishedSince) return answerFinished(req, res, finishedSince, user.id);
        throw new UploadRefusal(404, 'NOT_FOUND', UPLOAD_TEXTS.uploadFailed, 'Upload not found');
      }
      if (upload.metadata?.userId !== user.id) throw new UploadRefusal(403, 'FORBIDDEN', UPLOAD_TEXTS.notYourUpload);
      if (req.method === 'HEAD' && upload.size !== undefined && upload.offset === upload.size) {
        // complete on disk but never made into a post (the server stopped in between): do it now
        await finish(upload, user.id);
        await removeIncoming(id);
        const row = await findFinishedUpload(deps.db, id);
        if (row) return answerFinished(req, res, row, user.id);
      }
      uploaders.set(req, user);
      return void (await tus.handle(req, res));
    } catch (error) {
      if (!(error instanceof UploadRefusal)) throw error;
      // the rest of a refused request body is read and dropped, so the connection stays usable
      req.resume();
      res.setHeader('Tus-Resumable', TUS_VERSION);
      res.status(error.status).json(error.toJSON());
    }
  });
  return { router, tus, datastore, drain: () => locker.drain() };
}

/** A finished upload, answered from the database: complete for HEAD, an idempotent last PATCH. */
/** A PATCH of an upload that is already finished, at an offset other than its end. */
const latePatchRefusal = () => new UploadRefusal(409, 'OFFSET_MISMATCH', UPLOAD_TEXTS.uploadFailed, UPLOAD_TEXTS.uploadFinished);

function answerFinished(req: Request, res: Response, row: { user_id: string; post_id: string | null; byte_size: string }, userId: string) {
  if (row.user_id !== userId) throw new UploadRefusal(403, 'FORBIDDEN', UPLOAD_TEXTS.notYourUpload);
  res.setHeader('Tus-Resumable', TUS_VERSION);
  if (row.post_id) res.setHeader(UPLOAD_POST_ID_HEADER, row.post_id);
  const size = String(row.byte_size);
  if (req.method === 'HEAD') {
    res.setHeader('Upload-Offset', size);
    res.setHeader('Upload-Length', size);
    res.status(200).end();
    return;
  }
  if (req.method === 'PATCH' && req.get('upload-offset') === size) {
    req.resume();
    res.setHeader('Upload-Offset', size);
    res.status(204).end();
    return;
  }
  if (req.method === 'PATCH') throw latePatchRefusal();
  throw new UploadRefusal(400, 'UPLOAD_FINISHED', UPLOAD_TEXTS.uploadFailed, UPLOAD_TEXTS.uploadFinished);
}
