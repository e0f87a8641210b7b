import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import type { AppDeps } from '../../core/deps';
import { sessionTokenOf } from '../auth/cookies';
import { publicVersionReader, type PublicVersions } from './public-data-version';

/**
 * What a visitor sees of public content, a shared cache (CDN) may keep this long and serve stale
 * this much longer while it asks again: a deleted or privatised post leaves every anonymous answer
 * within PUBLIC_S_MAXAGE_S + PUBLIC_STALE_S (40 s) at a CDN, and at once in this server's own cache.
 */
export const PUBLIC_S_MAXAGE_S = 10;
export const PUBLIC_STALE_S = 30;
/** the longest this copy keeps an answer of one data version (see `publicCache`) */
const MEMORY_TTL_MS = 5_000;
/** how long an answer is still served after a like, comment or subscription changed its counts (and nothing else) */
const COUNTS_LAG_MS = 1_000;
const MAX_ENTRIES = 500;
const MAX_BODY_BYTES = 256 * 1024;

/**
 * Queries whose anonymous answer is the same for every visitor: featured creators, a public
 * profile and its posts, a public post, the anonymous feed (which stops after its first pages).
 * Explore needs a session (spec), so it has no anonymous answer to cache.
 */
export const PUBLIC_QUERIES: ReadonlySet<string> = new Set(['creators.featured', 'posts.feed', 'posts.byId', 'profiles.byUsername', 'profiles.posts']);

interface Entry {
  version: PublicVersions;
  made: number;
  status: number;
  body: Buffer;
  etag: string;
  contentType: string;
  expires: number;
}

/**
 * Whether a request carries a session cookie, read by the one parser resolveSession reads it with
 * (cookies.ts: names trimmed, `session =x` and `session\t=x` are the session, the first of two
 * wins). Such a request is never anonymous: it is signed in, or its cookie names no session and
 * its answer clears it. A pattern of its own here once missed `session =<token>`, and a signed-in
 * answer was kept and served to every visitor.
 */
const carriesSession = (req: Request) => sessionTokenOf(req.headers.cookie) !== null;

/**
 * Whether tRPC's answer was made for a viewer, not for anyone: its context resolved a session,
 * or it sets a cookie (response-meta.ts then says `private`). Never kept, whatever the request
 * looked like.
 */
const madeForOneViewer = (res: Response) =>
  res.hasHeader('set-cookie') || /\b(?:private|no-store)\b/i.test(String(res.getHeader('cache-control') ?? ''));

/** The procedures of a GET /trpc/<a,b,...> request, or null when it is not one. */
function proceduresOf(req: Request): string[] | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const path = req.path.replace(/^\//, '');
  return path ? path.split(',') : null;
}

/**
 * In front of /trpc: anonymous GETs of PUBLIC_QUERIES (alone or batched together) are answered
 * with `Cache-Control: public, s-maxage, stale-while-revalidate`, a strong ETag of the body (304
 * on If-None-Match), from a short in-memory cache keyed by the URL (the input is in the query).
 * A request with a session cookie (by the parser that resolves it), or any other procedure, goes
 * through untouched (tRPC answers it `private, no-store`); an answer whose context resolved a
 * session or that sets a cookie is passed on as tRPC made it, never kept.
 *
 * An entry holds the versions it was made at (./public-data-version.ts: every statement that
 * writes a table these answers read takes a new one, in PostgreSQL), and is served only while the
 * data version is still the same: a post published, deleted or privatised by any copy, the worker,
 * a script or a test's factory is out of every copy's answers from the next request on, with no
 * message between copies to miss. A like, comment or subscription changes only the counts
 * version: the answer is then served for COUNTS_LAG_MS more (a steady trickle of them, the billing
 * run renewing subscriptions, kept the featured creators from ever being served twice). A statement
 * takes its number before its transaction commits, so a visitor asking in that instant may see the
 * old answer kept under the new number: for at most MEMORY_TTL_MS, or until the next write.
 *
 * Requests that miss the same answer at once wait for the first one's (one statement per copy, not
 * one per visitor, when an entry has just expired or a write has just changed the version), and
 * are answered from it when it could be kept; otherwise each goes to tRPC itself.
 */
export function publicCache(deps: Pick<AppDeps, 'db' | 'log'>, versionAfterArrival = publicVersionReader(deps)) {
  const entries = new Map<string, Entry>();
  /** the answers being made, by URL: what the requests missing the same one wait for */
  const making = new Map<string, { version: PublicVersions; entry: Promise<Entry | null> }>();
  const fresh = (entry: Entry, version: PublicVersions, now: number) =>
    entry.version.data === version.data && entry.expires > now && (entry.version.counts === version.counts || now - entry.made < COUNTS_LAG_MS);

  const send = (req: Request, res: Response, entry: Entry) => {
    res.setHeader('Cache-Control', `public, s-maxage=${PUBLIC_S_MAXAGE_S}, stale-while-revalidate=${PUBLIC_STALE_S}`);
    res.setHeader('ETag', entry.etag);
    // Accept-Encoding: a client that does not ask for gzip gets the plain body (app.ts)
    res.setHeader('Vary', 'Cookie, Accept-Encoding');
    if (req.headers['if-none-match']?.split(',').some((t) => t.trim().replace(/^W\//, '') === entry.etag)) {
      res.status(304).end();
      return;
    }
    res.status(entry.status).setHeader('Content-Type', entry.contentType);
    res.setHeader('Content-Length', String(entry.body.length));
    res.end(req.method === 'HEAD' ? undefined : entry.body);
  };

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const procedures = proceduresOf(req);
    if (!procedures || !procedures.every((p) => PUBLIC_QUERIES.has(p)) || carriesSession(req)) return next();
    void versionAfterArrival().then((version) => {
      if (version === null) return next();
      answer(req, res, next, version);
    });
  };

  const answer = (req: Request, res: Response, next: NextFunction, version: PublicVersions) => {
    const key = req.originalUrl;
    const hit = entries.get(key);
    if (hit && fresh(hit, version, Date.now())) return send(req, res, hit);
    const inFlight = making.get(key);
    if (inFlight && inFlight.version.data === version.data && inFlight.version.counts === version.counts) {
      void inFlight.entry.then((entry) => (entry ? send(req, res, entry) : next()));
      return;
    }

    let settle!: (entry: Entry | null) => void;
    const made = { version, entry: new Promise<Entry | null>((resolve) => (settle = resolve)) };
    making.set(key, made);
    const finish = (entry: Entry | null) => {
      if (making.get(key) === made) making.delete(key);
      settle(entry);
    };
    // a client gone before the answer was made leaves the waiting ones to ask tRPC themselves
    res.once('close', () => finish(null));

    // capture tRPC's answer (it sets headers, writes the body and ends), then answer from it
    const chunks: Buffer[] = [];
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = ((chunk: unknown) => {
      if (chunk) chunks.push(Buffer.from(chunk as Uint8Array));
      return true;
    }) as Response['write'];
    (res as unknown as { flush?: () => void }).flush = () => {};
    res.end = ((chunk?: unknown) => {
      if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as Uint8Array));
      res.write = write;
      res.end = end;
      const body = Buffer.concat(chunks);
      const cacheable = res.statusCode === 200 && !madeForOneViewer(res) && body.length <= MAX_BODY_BYTES;
      if (!cacheable) {
        finish(null);
        return end(body);
      }
      const now = Date.now();
      const entry: Entry = {
        version,
        made: now,
        status: 200,
        body,
        etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
        contentType: String(res.getHeader('content-type') ?? 'application/json'),
        expires: now + MEMORY_TTL_MS,
      };
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(key, entry);
      finish(entry);
      res.removeHeader('Cache-Control');
      send(req, res, entry);
      return res;
    }) as Response['end'];
    next();
  };
  return { middleware };
}
