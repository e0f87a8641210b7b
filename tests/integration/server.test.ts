import { get, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { makeSessionCookie, makeUser } from '../helpers/factories';
import { useTestServer } from '../helpers/test-server';

const app = useTestServer();

describe('health', () => {
  it('answers /healthz and checks Postgres and Redis on /readyz', async () => {
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', postgres: 'ok', redis: 'ok' });
  });
});

describe('HTTP hardening', () => {
  it('sends a real CSP and the usual security headers', async () => {
    const res = await fetch(`${app.url}/healthz`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('answers the API with a policy that loads nothing, and compresses only for a client that asks', async () => {
    // fetch always asks for gzip and unpacks it: a bare request shows what the server sends
    const raw = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        get(`${app.url}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    // a batch of twelve unknown procedures: an answer over compression's 1 kB threshold
    const path = `/trpc/${Array.from({ length: 12 }, () => 'no.such').join(',')}?batch=1`;
    const plain = await raw(path, {});
    const packed = await raw(path, { 'accept-encoding': 'gzip' });
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(packed.body).toString()).toBe(plain.body.toString());
    for (const res of [plain, packed]) expect(res.headers.vary).toMatch(/Accept-Encoding/);
  });

  it("makes every request and response with Express's prototypes, so Express never has to change them", async () => {
    // heard before Express's own listener: what node made, before app.handle touches it
    const made: Array<[object | null, object | null]> = [];
    const listener = (req: object, res: object) => made.push([Object.getPrototypeOf(req), Object.getPrototypeOf(res)]);
    app.app.httpServer.prependListener('request', listener);
    try {
      const answers = await Promise.all([fetch(`${app.url}/healthz`), fetch(`${app.url}/trpc/auth.me`), fetch(`${app.url}/no-such-path`)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 404]);
    } finally {
      app.app.httpServer.off('request', listener);
    }
    expect(made).toHaveLength(3);
    for (const [req, res] of made) {
      expect(req).toBe(app.app.express.request);
      expect(res).toBe(app.app.express.response);
    }
  });

  it('refuses a mutation whose Origin is missing or foreign (CSRF) with 403', async () => {
    const body = JSON.stringify({ json: { email: 'a@b.co', password: 'whatever1' } });
    const post = (origin?: string) =>
      fetch(`${app.url}/trpc/auth.signIn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
        body,
      });
    expect((await post()).status).toBe(403);
    expect((await post('https://evil.example')).status).toBe(403);
    // Our own origin passes the guard and reaches the procedure (which rejects the credentials).
    expect((await post(app.url)).status).toBe(401);
  });

  it('never runs a mutation over GET', async () => {
    const input = encodeURIComponent(JSON.stringify({ json: { scope: 'global' } }));
    const res = await fetch(`${app.url}/trpc/auth.signOut?input=${input}`);
    expect(res.status).toBe(405);
  });
});

describe('Socket.IO', () => {
  const open = (cookie: string | null, origin = app.url) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(app.url, {
        transports: ['websocket'],
        extraHeaders: { origin, ...(cookie ? { cookie } : {}) },
        reconnection: false,
      });
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });

  it('refuses a socket opened from a foreign origin', async () => {
    await expect(open(null, 'https://evil.example')).rejects.toThrow();
  });

  it('tells a signed-in socket its session was revoked by signing out elsewhere, then disconnects it', async () => {
    const user = await makeUser(app.deps.db);
    const { cookie } = await makeSessionCookie(app.deps.db, user.id);
    const socket = await open(cookie);
    const revoked = new Promise<void>((resolve) => socket.once('session:revoked', () => resolve()));
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    const other = app.client();
    await other.trpc.auth.signIn.mutate({ email: user.email, password: user.password });
    await other.trpc.auth.signOut.mutate({ scope: 'others' });

    await revoked;
    expect(await disconnected).toBe('io server disconnect');
    // The session that signed the others out is still valid.
    expect((await other.trpc.auth.me.query())?.id).toBe(user.id);
  });

  it('tells a socket opened after its session ended elsewhere that it was revoked; a visitor without a cookie hears nothing', async () => {
    const user = await makeUser(app.deps.db);
    const { cookie } = await makeSessionCookie(app.deps.db, user.id);
    const other = app.client();
    await other.trpc.auth.signIn.mutate({ email: user.email, password: user.password });
    await other.trpc.auth.signOut.mutate({ scope: 'others' });

    const heard = (withCookie: string | null) => {
      const socket = connect(app.url, {
        transports: ['websocket'],
        extraHeaders: { origin: app.url, ...(withCookie ? { cookie: withCookie } : {}) },
        reconnection: false,
      });
      // listening before the connection is made: the server speaks as soon as it is
      const revoked = new Promise<boolean>((resolve) => {
        socket.once('session:revoked', () => resolve(true));
        socket.once('connect', () => socket.emit('room:join', { kind: 'post', ids: [] }, () => resolve(false)));
      });
      return revoked.finally(() => socket.disconnect());
    };
    expect(await heard(cookie)).toBe(true);
    expect(await heard(null)).toBe(false);
  });

  it('lets visitors connect without joining any user room', async () => {
    const socket = await open(null);
    expect(socket.connected).toBe(true);
    socket.disconnect();
  });
});
