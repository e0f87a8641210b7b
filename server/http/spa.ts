import express, { type RequestHandler } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppDeps } from '../../core/deps';
import { sessionTokenOf } from '../auth/cookies';
import { openFirstData, type FirstData, type OpenedFirstData } from './first-data';
import { pageHead, parseTemplate, renderPage } from './page-html';
import { routeChunkReader } from './route-chunks';
import { loadPageRenderer, NONCE_MARK, serverRender } from './server-render';

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
  let pageRenderer: ReturnType<typeof loadPageRenderer> | undefined;
  const render = serverRender(deps);
  const assets = express.static(path.join(distDir, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false });
  const files = express.static(distDir, { index: false, maxAge: '1h' });
  const fallback: RequestHandler = async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (API_PREFIXES.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return next();
    let first: FirstData | null = null;
    // the page opened for this request, freed once its markup is made (or its data came too late)
    const page: { opened: OpenedFirstData | null; late: boolean } = { opened: null, late: false };
    let timer: NodeJS.Timeout | undefined;
    try {
      pageRenderer ??= loadPageRenderer(distDir, deps);
      const pages = await pageRenderer;
      first = await Promise.race([
        (async () => {
          if (!pages) return null;
          // the page's route loaders, run with this request's own context (first-data.ts)
          const opened = await openFirstData(pages, deps, req, res, NONCE_MARK);
          page.opened = opened;
          if (page.late) opened.close();
          return opened.first;
        })(),
        new Promise<null>((resolve) => (timer = setTimeout(resolve, FIRST_DATA_WAIT_MS, null))),
      ]);
    } catch (error) {
      // the page still works without it: the client asks for its data itself
      deps.log.warn({ err: error, url: req.path }, 'first data of a page failed');
    } finally {
      clearTimeout(timer);
    }
    let markup: string | null = null;
    try {
      if (!res.headersSent) markup = (await render?.({ url: req.originalUrl, first, nonce: res.locals.cspNonce as string })) ?? null;
    } finally {
      page.late = true;
      page.opened?.close();
    }
    if (res.headersSent) return;
    const chunks = routeChunks(page.opened?.routeIds ?? []);
    const html = renderPage(template, pageHead(deps.config.appUrl, first), first, chunks, markup ?? '', res.locals.cspNonce as string);
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
