/**
 * The load generator, in a process of its own (neither the app's nor the floor's event loop pays
 * for it): autocannon with `connections` keep-alive connections against one loopback URL, a
 * warm-up phase whose figures are dropped, then the measured phase. Prints one JSON line:
 * { rps, p50, p99, requests, errors } (latencies in ms; errors counts non-2xx answers too).
 */
import autocannon from 'autocannon';

interface LoadInput {
  url: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
}

const input = JSON.parse(process.argv[2] ?? '{}') as LoadInput;
const target = new URL(input.url);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('bench load only targets loopback');

const run = (seconds: number, connections: number) =>
  autocannon({
    url: input.url,
    connections,
    duration: seconds,
    headers: input.headers,
    method: input.method ?? 'GET',
    body: input.body,
  });

if (input.warmupSeconds > 0) await run(input.warmupSeconds, input.connections);
const result = await run(input.seconds, input.connections);
console.log(
  JSON.stringify({
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  }),
);
