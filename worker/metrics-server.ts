import { createServer, type Server } from 'node:http';
import { renderMetrics } from '../core/metrics';
import { hasMetricsToken } from '../core/metrics-token';

/**
 * The worker's own /metrics (job durations, process metrics) for `npm run worker`: only for a
 * scraper sending `Authorization: Bearer <METRICS_TOKEN>`; no address is trusted instead.
 */
export function createWorkerMetricsServer(token: string | undefined): Server {
  return createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    if (!hasMetricsToken(req.headers.authorization, token)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
      return;
    }
    renderMetrics().then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(body),
      () => res.writeHead(500).end(),
    );
  });
}
