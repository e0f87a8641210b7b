import compression from 'compression';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import helmet from 'helmet';
import { randomBytes } from 'node:crypto';
import { createServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { AppDeps } from '../core/deps';
import { repoRoot } from '../core/repo-root';
import { avatarRoutes } from './features/settings/avatar.http';
import { forensicsRoutes } from './features/forensics/forensics.http';
import { adminRoutes } from './http/admin';
import { csrfGuard } from './http/csrf';
import { stripeWebhookRoutes } from './features/payments/stripe-webhook.http';
import { healthRoutes } from './http/health';
import { hlsRoutes } from './features/posts/hls.http';
import { mediaRoutes } from './features/posts/media.http';
import { messageMediaRoutes } from './features/messages/messages.http';
import { messageHlsRoutes } from './features/messages/message-hls.http';
import { httpMetrics, metricsRoutes } from './http/metrics';
import { requestLog } from './http/request-log';
import { expressMessageClasses } from './http/express-message-classes';
import { seoRoutes } from './http/seo-files';
import { ogCardRoutes } from './features/og-cards/og-cards.http';
import { spaHandler } from './http/spa';
import { uploadRoutes } from './features/uploads/uploads.http';
import { writeBudgetGuard } from './http/write-budget';
import { attachSocketServer, type IoServer } from './realtime/socket-server';
import { httpErrorAnswer } from './trpc/errors';
import { createContext } from './trpc/init';
import { trpcAdapterHandler, trpcExpressHandler } from './trpc/express-handler';
import { setLeanOutput } from './trpc/lean-output';
import { trpcResponseMeta } from './trpc/response-meta';
import { exportDownloadRoutes } from './features/account/export-download.http';
import { receiptPdfRoutes } from './features/payments/receipt-pdf.http';
import { appRouter } from './trpc/router';
import { mediaOrigins } from './http/media-redirect';
import { publicVersionReader } from './http/public-data-version';
import { publicCache } from './http/public-cache';

/** How long an idle keep-alive connection stays open: longer than the 60 s of common load balancers. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface App {
  httpServer: HttpServer;
  /** the Express app (its mounts are read by tests: every top-level path is a reserved username) */
  express: express.Express;
  io: IoServer;
  /** stops accepting, closes sockets and idle keep-alive connections, and waits for in-flight requests */
  close(): Promise<void>;
}

export function createApp(deps: AppDeps): App {
  const { config } = deps;
  setLeanOutput(config.FRAMEWORK_SHORTCUTS);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  const draining = drainTracker();
  app.use(draining.middleware);

  // one line per request; the probes and the static files are not worth a line each
  app.use(requestLog(deps.log, (url) => url === '/healthz' || url === '/readyz' || url.startsWith('/assets/')));
  const procedures = new Set(Object.keys(appRouter._def.procedures));
  app.use(httpMetrics((name) => procedures.has(name)));
  const csrf = csrfGuard(config);
  // the public data version, read once per turn of the event loop for the anonymous lists and the media rows
  const versions = config.PUBLIC_CACHE ? publicVersionReader(deps) : null;
  const compress = compression();
  // The API first, its Origin checked (CSRF): none of the routes below answers its paths, so its
  // requests skip matching them. Its answers are JSON, never a page: a fixed policy that lets
  // nothing load (no per-response nonce, which only the pages' inline scripts need), and gzip or
  // brotli only for a client that asks (`compression` still writes Vary: Accept-Encoding then;
  // the handler writes it for the others). Anonymous answers of public queries are
  // shared-cacheable, with ETags and a short memory cache; the tRPC mutations count against
  // their write budgets in trpc/init.ts.
  app.use(
    '/trpc',
    helmet(securityHeaders(config, { defaultSrc: ["'none'"], frameAncestors: ["'none'"] })),
    (req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next()),
    csrf,
    ...(versions ? [publicCache(deps, versions).middleware] : []),
    (config.FRAMEWORK_SHORTCUTS ? trpcExpressHandler : trpcAdapterHandler)({
      router: appRouter,
      createContext: (opts) => createContext(deps, opts),
      maxBatchSize: 20,
      responseMeta: trpcResponseMeta,
      onError({ error, path: procedure }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') deps.log.error({ err: error, procedure }, 'tRPC procedure failed');
      },
    }),
  );
  // a fresh nonce per response for the inline scripts of server-rendered pages (server/http/server-render.ts)
  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString('base64');
    next();
  });
  app.use(
    helmet(
      securityHeaders(config, {
        defaultSrc: ["'self'"],
        // the only inline scripts are a server-rendered page's router data, with this response's nonce
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as unknown as { locals: { cspNonce: string } }).locals.cspNonce}'`],
        // Radix and sonner set inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...mediaOrigins(config)],
        mediaSrc: ["'self'", 'blob:', ...mediaOrigins(config)],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', ...mediaOrigins(config)],
        frameSrc: ["'self'", ...mediaOrigins(config)],
        objectSrc: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      }),
    ),
  );
  app.use(compress);
  app.use(healthRoutes(deps));
  // admins, or a scraper holding METRICS_TOKEN
  app.use(metricsRoutes(deps));
  // Stripe's signed webhooks: authenticated by their signature, not an Origin (before the guard)
  app.use(stripeWebhookRoutes(deps));
  app.use(csrf);
  // every write outside /trpc counts against its budget (the tRPC mutations: trpc/init.ts)
  app.use(writeBudgetGuard(deps));
  // tus resumable uploads of creators; the incoming files are never served
  const uploads = uploadRoutes(deps);
  app.use(uploads.router);
  // Bull Board, admins only
  app.use(adminRoutes(deps));
  // Stored files are reachable only here, after the access rule; never by a static path.
  // chat attachments: upload, and their files to the two participants (before /media/:postId/:variant)
  app.use(messageMediaRoutes(deps));
  // a chat video's HLS playlists (per participant, after the same rule) and signed segments
  app.use(messageHlsRoutes(deps));
  // a post video's HLS playlists (per viewer, after the access rule) and signed segments
  app.use(hlsRoutes(deps));
  app.use(mediaRoutes(deps, versions));
  // avatars: POST /avatar (bytes checked, re-encoded by the worker) and the re-encoded files
  app.use(avatarRoutes(deps));
  // a suspected leak of a post, uploaded by its creator or an admin for a trace (issue 49)
  app.use(forensicsRoutes(deps));
  // "Download my data" zips, to their owner only (issue 13)
  app.use(exportDownloadRoutes(deps));
  // a purchase's receipt as a PDF, to its payer only (issue 47 item 6)
  app.use(receiptPdfRoutes(deps));
  // link previews and search engines (issue 30): robots.txt, the sitemap of public creators
  app.use(seoRoutes(deps));
  // link previews' pictures: /og/profile/<username>.jpg, /og/post/<id>.jpg (issue 50 item 2)
  app.use(ogCardRoutes(deps));
  if (config.SERVE_SPA) app.use(spaHandler(path.resolve(repoRoot, config.DIST_DIR), deps));
  app.use((_req, res) => {
    res.status(404).json({ error: { message: 'Not found' } });
  });
  app.use(unhandledErrors(deps));

  const httpServer = createServer(config.FRAMEWORK_SHORTCUTS ? expressMessageClasses(app) : {}, app);
  // A client that keeps connections open (a load balancer's pool: 60 s idle on AWS's by default;
  // a browser) may send a request on one just as Node closes it after its default 5 s idle: the
  // request is reset unanswered (a 502 at a balancer). The server waits longer than they do; a
  // stop does not wait for them (drainTracker closes every connection once no request is left).
  httpServer.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  httpServer.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  const io = attachSocketServer(httpServer, deps);

  return {
    httpServer,
    express: app,
    io,
    close: () =>
      new Promise<void>((resolve) => {
        draining.start(httpServer);
        // uploads in flight stop reading their chunk and answer with what they have (the client
        // resumes on another copy) instead of holding the stop up for the rest of their body
        uploads.drain();
        // io.close disconnects the sockets, then closes the HTTP server, which calls back once
        // every connection has ended: the ones with no request in flight are closed now, busy
        // ones after their response (sent with 'Connection: close', so clients do not reuse them
        // meanwhile).
        io.close(() => resolve());
        draining.closeUnused();
      }),
  };
}

type CspDirectives = NonNullable<Exclude<NonNullable<Parameters<typeof helmet>[0]>['contentSecurityPolicy'], boolean>>['directives'];

/** helmet's headers with the given policy (upgrade-insecure-requests and HSTS only over HTTPS). */
function securityHeaders(config: AppDeps['config'], directives: NonNullable<CspDirectives>): Parameters<typeof helmet>[0] {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: { ...directives, ...(config.cookieSecure ? { upgradeInsecureRequests: [] } : {}) } },
    // Secure cookies imply HTTPS; only then is HSTS meaningful.
    strictTransportSecurity: config.cookieSecure,
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * What a graceful stop needs to know of the requests in flight: once it starts, each response
 * not yet begun says 'Connection: close' (the client opens a new connection, to another copy,
 * for its next request), and each connection is closed as soon as its response is done. Once no
 * request is left, every connection still open is closed: Node counts as busy (and a stop would
 * wait its keep-alive time for) a connection on which a client began a request and went away
 * before its headers were complete.
 */
function drainTracker() {
  const inFlight = new Set<ServerResponse>();
  let server: HttpServer | null = null;
  const closeUnused = () => (inFlight.size === 0 ? server?.closeAllConnections() : server?.closeIdleConnections());
  const closeIfIdle = () => setImmediate(closeUnused);
  return {
    closeUnused,
    middleware: ((_req, res, next) => {
      if (server) res.setHeader('Connection', 'close');
      inFlight.add(res);
      res.once('close', () => {
        inFlight.delete(res);
        if (server) closeIfIdle();
      });
      next();
    }) satisfies RequestHandler,
    start(httpServer: HttpServer) {
      server = httpServer;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    },
  };
}

/**
 * The last word on an error no route answered (tus, /media, the admin board, ...): it is logged
 * here, and the client gets JSON with generic words (or 400 for data the database refused),
 * never the error's own text or stack, whatever NODE_ENV says.
 */
function unhandledErrors(deps: AppDeps): ErrorRequestHandler {
  return (error, req, res, next) => {
    const answer = httpErrorAnswer(error);
    if (answer.status >= 500) deps.log.error({ err: error, method: req.method, url: req.path }, 'request failed');
    // too late for an answer: Express's own handler ends the connection
    if (res.headersSent) return next(error);
    res.status(answer.status).json(answer.body);
  };
}
