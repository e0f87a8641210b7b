import { createServer } from 'node:http';

/**
 * The notify-fanout scenario's push service (bench/notify-fanout.ts), in a process of its own as a
 * real one is on another machine: it takes every POST with 201 and counts it. `GET /count` answers
 * how many it took and when the last came (epoch ms); `GET /ready` answers once it listens. Were it
 * in the bench's process, its 1,000 requests a second would delay the timing of the likes there.
 */
let pushes = 0;
let lastAt = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(req.url === '/count' ? JSON.stringify({ pushes, lastAt }) : '{}');
    return;
  }
  req.resume();
  req.on('end', () => {
    pushes++;
    lastAt = Date.now();
    res.writeHead(201).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PUSH_RECEIVER_PORT), '127.0.0.1');
