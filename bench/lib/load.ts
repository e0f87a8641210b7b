import { runNodeJson } from './processes';

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  headers?: Record<string, string>;
  /** a 3xx is the answer expected (and any other one an error), not a 2xx */
  expectRedirect?: boolean;
}

/** A closed-loop load on `url` from bench/load-runner.ts (autocannon), in its own process. */
export async function runLoad(url: string, opts: LoadOptions): Promise<LoadResult> {
  const r = await runNodeJson<{ rps: number; p50: number; p99: number; requests: number; errors: number }>('bench/load-runner.ts', { url, ...opts });
  return { requests: r.requests, errors: r.errors, rps: r.rps, p50Ms: r.p50, p99Ms: r.p99 };
}
