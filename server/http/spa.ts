import express, { type RequestHandler } from 'express';
import { existsSync } from 'node:fs';
import path from 'node:path';

const API_PREFIXES = ['/trpc', '/socket.io', '/media', '/uploads', '/message-attachments', '/admin/queues', '/metrics', '/healthz', '/readyz'];

/**
 * Serves the built SPA: hashed assets cached for a year, everything else falls back to
 * index.html (history routing) and is never cached so a deploy is picked up at once.
 */
export function spaHandler(distDir: string): express.Router {
  const indexHtml = path.join(distDir, 'index.html');
  if (!existsSync(indexHtml)) {
    throw new Error(`The web app is not built (${indexHtml} is missing): run npm run build`);
  }
  const assets = express.static(path.join(distDir, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false });
  const files = express.static(distDir, { index: false, maxAge: '1h' });
  const fallback: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (API_PREFIXES.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexHtml);
  };
  const router = express.Router();
  router.use('/assets', assets);
  router.use(files, fallback);
  return router;
}
