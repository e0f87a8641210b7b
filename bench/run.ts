/**
 * `npm run bench`: every figure beside a floor measured in the same run on the same data, printed
 * with its ratio and written to bench/out/latest.json ({ name, value, floor, ratio, p50, p99, unit }).
 *
 * The app runs as production runs it, in its own process (scripts/serve.ts, NODE_ENV=production,
 * workers off unless measured); each floor runs in a process of its own; the load comes from a
 * third process (autocannon, 50 connections, a warm-up, then the measured phase). See
 * docs/performance.md for what each floor is.
 *
 *   npm run bench                      everything (about 15 minutes on 2 cores)
 *   npm run bench -- --quick           smoke run on tiny data, under a minute on a quiet machine
 *                                      (BENCH_QUICK=1; explore, video and ladder only when named in --only)
 *   npm run bench -- --only=feed,images a comma-separated list of scenarios (BENCH_ONLY)
 *   npm run bench -- --soak            the 5-minute mixed-traffic soak (bench/soak.ts) only
 *   npm run bench -- --only=web        Lighthouse 12 on the built app (bench/web.ts; BENCH_WEB_RUNS=3)
 *   npm run bench -- --only=start      npm start on a fresh database, cold and warm, beside 30 s (bench/start.ts)
 *   npm run bench -- --only=scale      the read path and the fan-out at 100x the data beside 1x, with plans (bench/scale.ts;
 *                                      BENCH_SCALE_FACTOR=0.1 for a tenth of the full size; --quick: 0.01)
 *   BENCH_SECONDS=10                   each measured load phase (default 10; 2 with --quick)
 *   BENCH_APP_NODE_ARGS="--cpu-prof --cpu-prof-dir=bench/out/profiles"   profile the app
 */
import os from 'node:os';
import path from 'node:path';
import { benchEarnings } from './earnings';
import { benchExplore } from './explore';
import { benchFeatured } from './featured';
import { benchFeed } from './feed';
import { benchLadder } from './ladder';
import { benchMassMessage } from './mass-message';
import type { BenchContext, Scenario } from './lib/context';
import { formatFigure, mergeFigures, writeFigures, type Figure } from './lib/figures';
import { killAll, repoRoot } from './lib/processes';
import { benchMessageDelivery, benchMessagesReads } from './messages';
import { benchNotifyFanout } from './notify-fanout';
import { benchRealtime } from './realtime';
import { benchScale } from './scale';
import { benchSoak } from './soak';
import { benchStart } from './start';
import { benchSubscribe } from './subscribe';
import { benchWeb } from './web';
import { benchImages, benchUpload, benchVideo } from './worker';
import { benchTwoCopies } from './two-copies';

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
const quick = Boolean(flag('quick')) || process.env.BENCH_QUICK === '1';
const soak = Boolean(flag('soak'));
const only = (flag('only')?.split('=')[1] ?? process.env.BENCH_ONLY)
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);

const seconds = Number(process.env.BENCH_SECONDS ?? (quick ? 2 : 10));
const connections = Number(process.env.BENCH_CONNECTIONS ?? process.env.BENCH_CONCURRENCY ?? 50);
const ctx: BenchContext = {
  quick,
  scale: quick ? 0.05 : 1,
  connections,
  seconds,
  warmupSeconds: quick ? 1 : 3,
};

// the names `--only` matches (a name before its dot selects every scenario of that file)
const scenarios: Record<string, Scenario> = soak
  ? { soak: benchSoak }
  : {
      featured: benchFeatured,
      feed: benchFeed,
      explore: benchExplore,
      realtime: benchRealtime,
      images: benchImages,
      video: benchVideo,
      ladder: benchLadder,
      upload: benchUpload,
      'subscribe.benchSubscribe': benchSubscribe,
      'messages.benchMessagesReads': benchMessagesReads,
      'messages.benchMessageDelivery': benchMessageDelivery,
      'two-copies': benchTwoCopies,
      web: benchWeb,
      earnings: benchEarnings,
      'notify-fanout': benchNotifyFanout,
      'mass-message': benchMassMessage,
      start: benchStart,
      scale: benchScale,
    };

console.log(
  `bench${quick ? ' --quick' : ''}: ${connections} connections, ${ctx.warmupSeconds} s warm-up + ${seconds} s per load phase; ` +
    `${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${os.loadavg()[0]!.toFixed(2)} at start`,
);
const figures: Figure[] = [];
const failed: string[] = [];
const startedAt = new Date();
// the slowest to set up; a smoke run measures them only when asked by name
const skippedWhenQuick = new Set(['explore', 'video', 'ladder', 'web', 'scale']);
for (const [name, run] of Object.entries(scenarios)) {
  if (only && !only.some((o) => name === o || name.startsWith(`${o}.`))) continue;
  if (quick && !only && skippedWhenQuick.has(name)) continue;
  const t0 = performance.now();
  try {
    for (const item of await run(ctx)) {
      if (typeof item === 'string') console.log(item);
      else {
        figures.push({ ...item, section: name });
        console.log(formatFigure(item));
      }
    }
  } catch (error) {
    failed.push(name);
    console.error(`${name}: FAILED`, error);
  }
  console.log(`  (${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
// a smoke run, a partial run or the soak never overwrites the last full run's figures
const outName = soak ? 'soak.json' : quick ? 'quick.json' : only ? 'partial.json' : 'latest.json';
const file = await writeFigures(figures, {
  startedAt: startedAt.toISOString(),
  quick,
  connections,
  seconds,
  warmupSeconds: ctx.warmupSeconds,
  cores: os.cpus().length,
  loadAverageAtEnd: os.loadavg()[0],
  failed,
}, path.join(repoRoot, 'bench/out', outName));
console.log(`figures written to ${path.relative(repoRoot, file)}${failed.length ? `; FAILED: ${failed.join(', ')}` : ''}`);
// a partial full-size run also replaces its sections' figures in latest.json (the others stay)
if (only && !quick && !soak) {
  const latest = path.join(repoRoot, 'bench/out/latest.json');
  const ran = new Set(figures.map((f) => f.section));
  await mergeFigures(latest, figures, (f) => f.section !== undefined && ran.has(f.section), Object.fromEntries([...ran].map((s) => [`${s}StartedAt`, startedAt.toISOString()])));
  console.log(`and merged into ${path.relative(repoRoot, latest)}`);
}
killAll();
process.exit(failed.length ? 1 : 0);
