/**
 * The floor, in a process of its own: bare node:http + pg (a pool of 10, as the app's), answering
 * `GET /?r=<index>` with the rows of route `index` (FLOOR_ROUTES, JSON: [{ sql, values }], where
 * the value '$session' stands for the SHA-256 of the request's session cookie, as the app computes
 * it). The least work that gives the same answer: no framework, no validation, one statement.
 * With FLOOR_PUT_FILE, a PUT writes its body to that file: the upload's floor.
 */
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { sessionIdOf } from './lib/session-id';
import type { FloorRoute } from './lib/processes';

const routes = JSON.parse(process.env.FLOOR_ROUTES ?? '[]') as FloorRoute[];
const pool = new pg.Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: 10 });

const server = http.createServer(async (req, res) => {
  if (req.url === '/ready') return void res.writeHead(200).end('ok');
  if (req.method === 'PUT' && process.env.FLOOR_PUT_FILE) {
    // the upload floor: the request's bytes straight into a file
    return void pipeline(req, createWriteStream(process.env.FLOOR_PUT_FILE)).then(
      () => res.writeHead(204).end(),
      () => res.writeHead(500).end(),
    );
  }
  try {
    const index = Number(new URL(req.url ?? '/', 'http://floor').searchParams.get('r') ?? 0);
    const route = routes[index]!;
    const values = route.values.map((v) => (v === '$session' ? sessionIdOf(req) : v));
    const { rows } = await pool.query({ text: route.sql, values, ...(route.prepared && { name: `floor_${index}` }) });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows));
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});
server.listen(Number(process.env.FLOOR_PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
