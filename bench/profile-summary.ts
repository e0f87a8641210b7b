/**
 * Summarises a V8 CPU profile (node --cpu-prof; the bench passes BENCH_APP_NODE_ARGS to the app):
 * the functions and the packages/files with the most self time, so a profile of the app under
 * load reads in a minute.   node --import tsx bench/profile-summary.ts <file.cpuprofile> [top] [skip seconds]
 * The third argument drops the first seconds of samples (the process starting: module loading).
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
const [file, topArg, skipArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const top = Number(topArg ?? 25);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
const skipUs = Number(skipArg ?? 0) * 1e6;
let clock = 0;
profile.samples.forEach((id, i) => {
  clock += profile.timeDeltas[i] ?? 0;
  if (clock >= skipUs) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  if (!url) return '(native/idle)';
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\/.*?\/work\/main\//, '');
};
const fnTotals = new Map<string, number>();
const fileTotals = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  const key = `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  fnTotals.set(key, (fnTotals.get(key) ?? 0) + us);
  const f = where(n.callFrame.url);
  fileTotals.set(f, (fileTotals.get(f) ?? 0) + us);
}
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
};
// inclusive: the samples with a frame of each package or file anywhere on their stack
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, us] of self) {
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) seen.add(where(byId.get(cur)!.callFrame.url));
  for (const k of seen) inclusive.set(k, (inclusive.get(k) ?? 0) + us);
}
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
show('by package / file (inclusive: on the stack)', inclusive);
show('by package / file (self time)', fileTotals);
show('by function (self time)', fnTotals);
