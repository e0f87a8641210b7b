import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/app';
import { hashToken } from '../../core/token-hash';
import { loadConfig } from '../../core/config';
import { createDeps } from '../../core/create-deps';

export interface Running {
  port: number;
  close(): Promise<void>;
}

const listen = (server: http.Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** The real server (Express, session, tRPC, Kysely) on a free loopback port, without the SPA or workers. */
export async function startBenchApp(databaseUrl: string): Promise<Running> {
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    SERVE_SPA: 'false',
    LOG_LEVEL: 'silent',
    REDIS_PREFIX: `bench-${Date.now()}`,
    NODE_ENV: 'production',
  });
  const deps = createDeps(config);
  const app = createApp(deps);
  const port = await listen(app.httpServer);
  return {
    port,
    async close() {
      await app.close();
      await deps.close();
    },
  };
}

/** The floor: bare node:http answering each request with the JSON `answer` returns. */
export async function startFloorServer(answer: (req: IncomingMessage) => Promise<unknown>): Promise<Running> {
  const server = http.createServer(async (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(await answer(req)));
  });
  const port = await listen(server);
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The session id (SHA-256 of the cookie's token), as the app's context computes it. */
export function sessionIdOf(req: IncomingMessage): string {
  return hashToken(/(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '');
}
