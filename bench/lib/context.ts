import type { Figure } from './figures';

/** What every bench scenario gets from bench/run.ts. */
export interface BenchContext {
  /** `--quick` / BENCH_QUICK=1: a smoke run on tiny data that finishes in under a minute */
  quick: boolean;
  /** data-size multiplier: 1, or a small fraction with --quick */
  scale: number;
  /** concurrent connections of each load (50) */
  connections: number;
  /** measured phase of each load, in seconds */
  seconds: number;
  /** warm-up phase before it, not counted */
  warmupSeconds: number;
}

export type Scenario = (ctx: BenchContext) => Promise<Array<Figure | string>>;
