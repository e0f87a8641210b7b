import http from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * A closed-loop load: `concurrency` clients on keep-alive connections, each sending its next
 * request when the previous answer has been read, for `durationMs`. Bounded in time and to
 * loopback addresses only.
 */
export async function runLoad(url: string, opts: { concurrency: number; durationMs: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const target = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('bench load only targets loopback');
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + opts.durationMs;

  const once = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.get(target, { agent, headers: opts.headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - started);
          else errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
    });

  const client = async () => {
    while (performance.now() < deadline) await once();
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: opts.concurrency }, client));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, p50Ms: pct(0.5), p99Ms: pct(0.99) };
}

export function formatRow(name: string, r: LoadResult, floor?: LoadResult): string {
  const ratio = floor ? `  ${(r.rps / floor.rps).toFixed(2)}x floor rps, ${(r.p99Ms / floor.p99Ms).toFixed(2)}x floor p99` : '';
  return `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50Ms.toFixed(1).padStart(6)} ms  p99 ${r.p99Ms
    .toFixed(1)
    .padStart(6)} ms  errors ${r.errors}${ratio}`;
}
