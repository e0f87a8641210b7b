import { createConnection, type AddressInfo } from 'node:net';
import { Agent, request, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TEXTS } from '../../common/texts';
import { ConfigError, loadConfig } from '../../core/config';
import { createWorkerMetricsServer } from '../../worker/metrics-server';
import { makeSessionCookie, makeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';

// Headers and gates of the HTTP surface: tRPC caching, the Origin check (HTTP and Socket.IO), /metrics.
const METRICS_TOKEN = 'http-guards-metrics-token-0123456789abcdef';
let app: TestServer;
let host: string;
beforeAll(async () => {
  // one trusted proxy, so X-Forwarded-Proto can say the visitor came over https
  app = await startTestServer({ env: { METRICS_TOKEN, TRUST_PROXY: '1' } });
  host = new URL(app.url).host;
});
afterAll(async () => {
  await app?.close();
});

describe('tRPC answers and caches', () => {
  it('a signed-in answer is private and never stored; every answer varies by Cookie', async () => {
    const fan = await clientAs(app, (await makeUser(app.deps.db)).id);
    await fan.trpc.auth.me.query();
    const signedIn = fan.lastResponse()!;
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('cache-control')).toBe('private, no-store');
    expect(signedIn.headers.get('vary')).toMatch(/\bCookie\b/i);

    // a signed-in refusal too (it tells what the user may do)
    await expect(fan.trpc.uploads.unfinished.query()).rejects.toThrow();
    expect(fan.lastResponse()!.status).toBe(403);
    expect(fan.lastResponse()!.headers.get('cache-control')).toBe('private, no-store');

    const visitor = app.client();
    expect(await visitor.trpc.auth.me.query()).toBeNull();
    expect(visitor.lastResponse()!.headers.get('vary')).toMatch(/\bCookie\b/i);
    expect(visitor.lastResponse()!.headers.get('cache-control')).toBeNull();
  });

  it('the answer that signs in (and sets the cookie) is not stored either', async () => {
    const user = await makeUser(app.deps.db);
    const client = app.client();
    await client.trpc.auth.signIn.mutate({ email: user.email, password: user.password });
    expect(client.lastSetCookie().length).toBeGreaterThan(0);
    expect(client.lastResponse()!.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('the Origin check compares scheme, host and port', () => {
  const resetRequest = (origin: string, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/trpc/auth.requestPasswordReset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, ...headers },
      body: JSON.stringify({ json: { email: 'nobody-origin@example.com' } }),
    });

  it('refuses a mutation from https://host when the request came over http://host', async () => {
    expect((await resetRequest(`http://${host}`)).status).toBe(200);
    const refused = await resetRequest(`https://${host}`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(AUTH_TEXTS.csrfRejected);
    // behind a trusted TLS proxy the request was addressed to https://host
    expect((await resetRequest(`https://${host}`, { 'x-forwarded-proto': 'https' })).status).toBe(200);
  });

  it('refuses a Socket.IO handshake from the other scheme', async () => {
    const handshake = (origin: string) =>
      new Promise<'connected' | 'refused'>((resolve) => {
        const socket = connect(app.url, { transports: ['websocket'], extraHeaders: { origin }, reconnection: false });
        socket.once('connect', () => {
          socket.disconnect();
          resolve('connected');
        });
        socket.once('connect_error', () => {
          socket.disconnect();
          resolve('refused');
        });
      });
    expect(await handshake(`http://${host}`)).toBe('connected');
    expect(await handshake(`https://${host}`)).toBe('refused');
    expect(await handshake('http://evil.example')).toBe('refused');
  });
});

describe('/metrics', () => {
  it('needs the bearer token or an admin session, even from this machine', async () => {
    const local = app.client();
    const none = await local.fetch('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await local.fetch('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } })).status).toBe(401);

    const scraper = await local.fetch('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraper.status).toBe(200);
    expect(await scraper.text()).toContain('queue_jobs');

    const admin = await makeUser(app.deps.db);
    await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const asAdmin = await (await clientAs(app, admin.id)).fetch('/metrics');
    expect(asAdmin.status).toBe(200);
    expect(await asAdmin.text()).toContain('queue_jobs');

    const fan = await clientAs(app, (await makeUser(app.deps.db)).id);
    expect((await fan.fetch('/metrics')).status).toBe(403);
    // a fan's session with the wrong token is still a fan
    expect((await fan.fetch('/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(403);
  });

  describe("the worker's own endpoint", () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createWorkerMetricsServer(METRICS_TOKEN);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it('answers the bearer token only, never a loopback request or a session cookie', async () => {
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      expect((await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
      const admin = await makeUser(app.deps.db);
      await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
      const { cookie } = await makeSessionCookie(app.deps.db, admin.id);
      expect((await fetch(`${url}/metrics`, { headers: { cookie } })).status).toBe(401);

      const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('queue_job_duration_seconds');
      expect((await fetch(`${url}/other`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
    });

    it('refuses everyone when no token is configured, and the worker will not start it without one', async () => {
      const open = createWorkerMetricsServer(undefined);
      await new Promise<void>((resolve) => open.listen(0, '127.0.0.1', resolve));
      try {
        const res = await fetch(`http://127.0.0.1:${(open.address() as AddressInfo).port}/metrics`, {
          headers: { authorization: 'Bearer undefined' },
        });
        expect(res.status).toBe(401);
      } finally {
        await new Promise((resolve) => open.close(resolve));
      }
      expect(() => loadConfig({ WORKER_METRICS_PORT: '9465' })).toThrow(ConfigError);
      expect(loadConfig({ WORKER_METRICS_PORT: '9465', METRICS_TOKEN }).METRICS_TOKEN).toBe(METRICS_TOKEN);
      expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    });
  });
});

describe('keep-alive connections', () => {
  it("an idle connection outlives Node's 5 s default, so a client that reuses it later is answered on it, not reset", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const req = request(`${app.url}/healthz`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket }));
        });
        req.on('error', reject).end();
      });
    try {
      expect(await get()).toEqual({ status: 200, reused: false });
      // past Node's default keepAliveTimeout: the server would have closed the connection by now
      await sleep(6_000);
      expect(await get()).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });
});

describe('a stop', () => {
  it('does not wait for a client that began a request and went quiet before its headers were done', async () => {
    const other = await startTestServer({ shareWith: app });
    const { hostname, port } = new URL(other.url);
    const socket = createConnection({ host: hostname, port: Number(port) });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // Node counts this connection as busy: without the drain closing it, the stop would wait the
    // keep-alive time (65 s), past this test's limit
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\n`);
    const closedByServer = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    await sleep(100);
    await other.close();
    await closedByServer;
    expect(socket.destroyed).toBe(true);
  });
});
