import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadResult } from './load';
import { repoRoot } from './processes';

/**
 * One measured figure beside its floor, as printed and as recorded in bench/out/latest.json.
 * `ratio` is always "how the product compares, higher is better": value/floor for rates
 * (req/s, images/s, MB/s), floor/value for times (s, ms).
 */
export interface Figure {
  name: string;
  value: number;
  floor: number | null;
  ratio: number | null;
  p50: number | null;
  p99: number | null;
  unit: string;
  /** what the floor is, and anything worth knowing beside the figure (targets, sizes) */
  note?: string;
  /** for loads: the floor's p50/p99 and the p99 ratio (app p99 / floor p99, lower is better) */
  floorP50?: number | null;
  floorP99?: number | null;
  p99Ratio?: number | null;
  errors?: number;
  /** the bench/run.ts scenario that measured it (a partial run replaces only its own in latest.json) */
  section?: string;
}

const HIGHER_IS_BETTER = new Set(['req/s', 'images/s', 'MB/s', 'rows/s']);

export function figure(name: string, value: number, floor: number | null, unit: string, extra: Partial<Figure> = {}): Figure {
  const ratio = floor === null || !floor || !value ? null : HIGHER_IS_BETTER.has(unit) ? value / floor : floor / value;
  return { name, value: round(value), floor: floor === null ? null : round(floor), ratio: ratio === null ? null : round(ratio), p50: null, p99: null, unit, ...extra };
}

/** A load's figure: requests per second beside the floor's, with both p50/p99. */
export function loadFigure(name: string, app: LoadResult, floor: LoadResult, note?: string): Figure {
  return figure(name, app.rps, floor.rps, 'req/s', {
    p50: round(app.p50Ms),
    p99: round(app.p99Ms),
    floorP50: round(floor.p50Ms),
    floorP99: round(floor.p99Ms),
    p99Ratio: floor.p99Ms ? round(app.p99Ms / floor.p99Ms) : null,
    errors: app.errors + floor.errors,
    note,
  });
}

/** The `p` quantile (0-1) of ascending `sorted` values (NaN when there are none). */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

function round(n: number): number {
  return Math.abs(n) >= 100 ? Math.round(n * 10) / 10 : Math.round(n * 1000) / 1000;
}

export function formatFigure(f: Figure): string {
  const num = (n: number | null | undefined) => (n === null || n === undefined ? '-' : String(n));
  const parts = [`${f.name.padEnd(48)} ${num(f.value).padStart(9)} ${f.unit.padEnd(8)}`];
  if (f.floor !== null) parts.push(`floor ${num(f.floor).padStart(9)}  ${f.ratio === null ? '' : `${f.ratio.toFixed(2)}x`}`);
  if (f.p50 !== null || f.p99 !== null) parts.push(`p50 ${num(f.p50)} p99 ${num(f.p99)}${f.floorP99 ? ` (floor ${num(f.floorP50)}/${num(f.floorP99)}, p99 ${num(f.p99Ratio)}x)` : ''}`);
  if (f.errors) parts.push(`errors ${f.errors}`);
  return parts.join('  ') + (f.note ? `\n    ${f.note}` : '');
}

export async function writeFigures(figures: Figure[], meta: Record<string, unknown>, file = path.join(repoRoot, 'bench/out/latest.json')) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ ...meta, figures }, null, 2)}\n`);
  return file;
}

/**
 * Replaces the figures `replaced` picks in `file` (when it exists) with `figures`, keeping the
 * rest and the file's run details, and adds `meta` beside them.
 */
export async function mergeFigures(file: string, figures: Figure[], replaced: (f: Figure) => boolean, meta: Record<string, unknown>) {
  const previous = (await readFile(file, 'utf8').then(JSON.parse, () => ({ figures: [] }))) as { figures?: Figure[] } & Record<string, unknown>;
  const kept = (previous.figures ?? []).filter((f) => !replaced(f));
  await writeFile(file, `${JSON.stringify({ ...previous, ...meta, figures: [...kept, ...figures] }, null, 2)}\n`);
}
