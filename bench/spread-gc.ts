/**
 * How V8 collects objects made in a few ways (docs/performance.md, "Spread objects outlive their
 * request"): each way runs in a node of its own with --trace-gc-nvp, making 2,000 objects a tick
 * that each refer to a fresh array, and prints what a minor collection allocated, kept and
 * promoted (median of the last ten). An object nothing refers to after its tick should be neither
 * kept nor promoted.
 *
 *   node --import tsx bench/spread-gc.ts
 */
import { spawnSync } from 'node:child_process';

const ways: Record<string, string> = {
  'fields named: { a: o, b: 1 }': 'sink = { a: o, b: 1 };',
  'a spread alone: { ...deps }': 'sink = { ...deps };',
  'a spread first, then new fields: { ...deps, req: o }': 'sink = { ...deps, req: o, res: o };',
  'the same from a fresh object: { ...decision, profile: o }': 'const d = { known: i >= 0, messaging: "available" }; sink = { ...d, profile: o };',
  'a spread last: { req: o, ...deps }': 'sink = { req: o, res: o, ...deps };',
  'a spread in the middle: { a, ...x, b }': 'sink = { a: 1, b: o, ...(i % 2 ? { media: 1 } : { media: 1, files: [] }), c: 2 };',
  'a spread first, then its own fields: { ...m, readAt: null }': 'const m = { a: 1, readAt: "x", o: null }; sink = { ...m, readAt: null, o };',
  'Object.assign({}, deps, { req: o })': 'sink = Object.assign({}, deps, { req: o });',
  'new AbortController(), its signal read': 'const ac = new AbortController(); ac.signal.o = o;',
};

const program = (body: string) => `
  const deps = { config: {}, db: {}, redis: {}, queues: {}, log: {}, realtime: {}, storage: {}, payments: {}, clock: {} };
  let sink;
  let ticks = 0;
  const timer = setInterval(() => {
    for (let i = 0; i < 2000; i++) {
      const o = { a: new Array(20).fill(i), b: 'x' + i };
      ${body}
    }
    if (++ticks > 800) clearInterval(timer);
  }, 0);`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

console.log(`node ${process.version}, V8 ${process.versions.v8}; per minor collection: allocated / kept / promoted`);
for (const [name, body] of Object.entries(ways)) {
  const run = spawnSync(process.execPath, ['--trace-gc-nvp', '-e', program(body)], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const scavenges = run.stdout
    .split('\n')
    .filter((line) => line.includes(' gc=s '))
    .slice(-10)
    .map((line) => Object.fromEntries(line.split(' ').flatMap((kv) => (kv.includes('=') ? [kv.split('=') as [string, string]] : []))));
  const of = (key: string) => median(scavenges.map((s) => Number(s[key])));
  console.log(`${name.padEnd(64)} ${mb(of('allocated'))} / ${mb(of('new_space_survived'))} / ${mb(of('promoted'))}`);
}
