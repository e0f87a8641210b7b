import express, { type RequestHandler } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppDeps } from '../../core/deps';
import { sessionTokenOf } from '../auth/cookies';
import { loadFirstData, pageRoute, type FirstData } from './first-data';
import { pageHead, parseTemplate, renderPage } from './page-html';
import { routeChunkReader } from './route-chunks';
import { loadServerRender } from './server-render';

const API_PREFIXES = ['/trpc', '/socket.io', '/media', '/uploads', '/message-attachments', '/admin/queues', '/metrics', '/healthz', '/readyz'];

/**
 * How long a page waits for its first data (first-data.ts) before it goes without: a slow
 * database must not hold the page up longer than the client's own request would.
 */
const FIRST_DATA_WAIT_MS = 1_500;

/**
 * Serves the built SPA: hashed assets cached for a year, everything else falls back to
 * index.html (history routing), filled in with the page's head and first data (page-html.ts)
 * and, for a visitor's public page, its server-rendered markup (server-render.ts), and is never cached so a deploy is picked up at once.
 */
export function spaHandler(distDir: string, deps: AppDeps): express.Router {
  const indexHtml = path.join(distDir, 'index.html');
  if (!existsSync(indexHtml)) {
    throw new Error(`The web app is not built (${indexHtml} is missing): run npm run build`);
  }
  const template = parseTemplate(readFileSync(indexHtml, 'utf8'));
  const routeChunks = routeChunkReader(distDir);
  // imported with the first page, not while the server starts: parsing the renderer holds the
  // event loop for a moment, which on a loaded machine made start-up's Redis commands time out
  let serverRender: ReturnType<typeof loadServerRender> | undefined;
  const assets = express.static(path.join(distDir, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false });
  const files = express.static(distDir, { index: false, maxAge: '1h' });
  const fallback: RequestHandler = async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (API_PREFIXES.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return next();
    let first: FirstData | null = null;
    let timer: NodeJS.Timeout | undefined;
    try {
      first = await Promise.race([
        loadFirstData(deps, req, res),
        new Promise<null>((resolve) => (timer = setTimeout(resolve, FIRST_DATA_WAIT_MS, null))),
      ]);
    } catch (error) {
      // the page still works without it: the client asks for its data itself
      deps.log.warn({ err: error, url: req.path }, 'first data of a page failed');
    } finally {
      clearTimeout(timer);
    }
    if (res.headersSent) return;
    const route = pageRoute(req.path);
    serverRender ??= loadServerRender(distDir, deps);
    const markup = await (await serverRender)?.({ url: req.originalUrl, route, first, nonce: res.locals.cspNonce as string });
    if (res.headersSent) return;
    const html = renderPage(template, pageHead(deps.config.appUrl, route, first), first, routeChunks(route), markup ?? '', res.locals.cspNonce as string);
    // The HTML carries the viewer's own data: never shared between people, never kept stale. It
    // is a visitor's page only when nothing says otherwise: no session resolved, no cookie set or
    // renewed on this response, and no session cookie on the request (the first data may have
    // timed out after the session was read, and renewed it, or before: the request still says
    // whose page this is). `no-cache` alone lets a shared cache store it.
    const personal = (first !== null && first.viewerId !== null) || res.hasHeader('set-cookie') || sessionTokenOf(req.headers.cookie) !== null;
    res.setHeader('Cache-Control', personal ? 'private, no-cache' : 'no-cache');
    res.setHeader('Vary', 'Cookie');
    res.status(first?.notFound ? 404 : 200).type('html').send(html);
  };
  const router = express.Router();
  router.use('/assets', assets);
  router.use(files, fallback);
  return router;
}
