import express, { Router } from 'express';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLog } from './request-log';

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
    done();
  },
});
let server: Server;
let url: string;

beforeAll(async () => {
  const app = express();
  app.use(requestLog(pino({ level: 'info' }, sink), (u) => u === '/healthz'));
  app.get('/healthz', (_req, res) => void res.send('ok'));
  const api = Router();
  api.get('/list', (_req, res) => void res.json([1, 2]));
  app.use('/api', api);
  app.get('/boom', (_req, res) => void res.status(500).json({ error: 'x' }));
  app.get('/slow', (_req, res) => void setTimeout(() => res.json({}), 300));
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const lineFor = async (path: string) => {
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    const line = lines.find((l) => (l.req as { url: string }).url === path);
    if (line) return line;
    await new Promise((r) => setTimeout(r, 10));
  }
  return undefined;
};

describe('the request log', () => {
  it('writes one short line per answered request, with the URL as it arrived and no header or cookie', async () => {
    await fetch(`${url}/api/list?x=1`, { headers: { cookie: 'session=secret-token', authorization: 'Bearer other-secret' } });
    const line = await lineFor('/api/list?x=1');
    expect(line).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/api/list?x=1' }, res: { statusCode: 200 } });
    expect(typeof line!.responseTime).toBe('number');
    expect(Object.keys(line!.req as object).sort()).toEqual(['id', 'method', 'url']);
    expect(JSON.stringify(lines)).not.toMatch(/secret/);
  });

  it("keeps a mailed link's one-time token out of the line", async () => {
    await fetch(`${url}/auth/reset-password?token=reset-secret-123&next=%2F`);
    await fetch(`${url}/auth/confirm?token=confirm-secret-456`);
    expect(await lineFor('/auth/reset-password?token=[redacted]&next=%2F')).toBeDefined();
    expect(await lineFor('/auth/confirm?token=[redacted]')).toBeDefined();
    expect(JSON.stringify(lines)).not.toMatch(/reset-secret|confirm-secret/);
  });

  it('warns on a refusal and reports a failure as an error', async () => {
    await fetch(`${url}/nowhere`);
    await fetch(`${url}/boom`);
    expect(await lineFor('/nowhere')).toMatchObject({ level: 40, msg: 'request completed', res: { statusCode: 404 } });
    expect(await lineFor('/boom')).toMatchObject({ level: 50, msg: 'request errored', res: { statusCode: 500 }, err: { message: 'failed with status code 500' } });
  });

  it('notes a request whose client left before its answer', async () => {
    await fetch(`${url}/slow`, { signal: AbortSignal.timeout(50) }).catch(() => undefined);
    expect(await lineFor('/slow')).toMatchObject({ msg: 'request aborted' });
  });

  it('skips the paths it is told to, and numbers the others', async () => {
    await fetch(`${url}/healthz`);
    await fetch(`${url}/api/list`);
    expect(await lineFor('/api/list')).toBeDefined();
    expect(lines.some((l) => (l.req as { url: string }).url === '/healthz')).toBe(false);
    const ids = lines.map((l) => (l.req as { id: number }).id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
