/**
 * The load generator, in a process of its own (neither the app's nor the floor's event loop pays
 * for it): autocannon with `connections` keep-alive connections against one loopback URL for the
 * warm-up and the measured phase together, on the same connections; only the answers that arrive
 * in the measured phase are counted. Prints one JSON line: { rps, p50, p99, requests, errors }
 * (latencies in ms; errors counts non-2xx answers too, warm-up included, or with `expectRedirect`
 * every answer but a 3xx: the media route's redirects to the object store are its success).
 *
 * One run, not two: a new run opens new connections, and a server whose event loop is busy
 * accepts one waiting connection per turn of its loop (measured on the app: 50 new connections
 * under load were accepted one every 60-70 ms, the last after 2.5 s), so every connection's first
 * request in the measured phase made the p99 a figure of connection set-up, not of the requests.
 */
import autocannon from 'autocannon';
import { percentile } from './lib/figures';

interface LoadInput {
  url: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  expectRedirect?: boolean;
}

const input = JSON.parse(process.argv[2] ?? '{}') as LoadInput;
const target = new URL(input.url);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('bench load only targets loopback');

const started = performance.now();
const measuredFrom = started + input.warmupSeconds * 1000;
const latencies: number[] = [];
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const instance = autocannon(
    {
      url: input.url,
      connections: input.connections,
      duration: input.warmupSeconds + input.seconds,
      headers: input.headers,
      method: input.method ?? 'GET',
      body: input.body,
    },
    (err, done) => (err ? reject(err) : resolve(done)),
  );
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    if (performance.now() >= measuredFrom) latencies.push(responseTime);
  });
});
latencies.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    rps: latencies.length / input.seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    requests: latencies.length,
    errors: result.errors + result.timeouts + (input.expectRedirect ? result['1xx'] + result['2xx'] + result['4xx'] + result['5xx'] : result.non2xx),
  }),
);
