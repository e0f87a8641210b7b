/**
 * `npm run bench`: each benchmark runs the product's path and a floor (the least work that could
 * give the same answer) in the same run on the same data, and prints both with their ratio.
 * BENCH_SECONDS (default 5) sets each load phase (and each image phase of `worker`); 50
 * concurrent clients on loopback. `worker` times the media pipeline and the upload endpoint.
 * BENCH_ONLY=explore (a comma-separated list of names) runs only those benchmarks.
 */
import { benchExplore } from './explore';
import { benchFeatured } from './featured';
import { benchFeed } from './feed';
import { benchWorker } from './worker';

const durationMs = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).filter(Boolean);
const benches = { featured: benchFeatured, feed: benchFeed, explore: benchExplore, worker: benchWorker };

console.log(`bench: ${concurrency} concurrent clients, ${durationMs / 1000} s per phase`);
for (const [name, run] of Object.entries(benches)) {
  if (only && !only.includes(name)) continue;
  for (const line of await run({ concurrency, durationMs })) console.log(line);
}
process.exit(0);
