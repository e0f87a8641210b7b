import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ladderKey } from '../common/ladder';
import { insertLadder } from '../domain/streaming/ladders.queries';
import { makePost, makeSessionCookie, makeSubscription, makeUser } from '../tests/helpers/factories';
import { makeVideo } from '../tests/helpers/media-fixtures';
import { resolveFfmpegPath } from '../worker/media/ffmpeg-path';
import { storedLadder } from '../worker/jobs/ladder';
import { ladderJob, ladderRungs, makeLadder, type MadeLadder } from '../worker/media/hls-ladder';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { figure, loadFigure, type Figure } from './lib/figures';
import { runLoad } from './lib/load';
import { startAppProcess } from './lib/processes';

const run = promisify(execFile);
// BENCH_LADDER_ROUNDS: best of how many alternating rounds (default 2, 1 with --quick)
const MB = 1024 * 1024;

/**
 * The HLS ladder (issue 49, docs/media.md), each beside its floor on the same data in the same run:
 *   - encoding: the worker's ladder (makeLadder: probe, bounds, one ffmpeg run making every rung
 *     with the forced-input options, the thumbnail strip, reading back the playlists) on 20 s of
 *     1080p at 30 fps with a tone, against plain ffmpeg making the same 360/720/1080 ladder with
 *     the same settings (ladderJob's own options) in one command, with no probe, no bounds and no
 *     strip. Target: within 1.2x (ratio = floor time / ladder time >= 0.83).
 *   - playlists: an entitled fan's master and media playlists (session, access rule, ladder row,
 *     a signed URL per segment) from the app in its own process, against a static file of the
 *     same size served by the same app (express.static under /assets, after the same middleware).
 */
export async function benchLadder(ctx: BenchContext): Promise<Array<Figure | string>> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-ladder-'));
  try {
    const seconds = ctx.quick ? 2 : 20;
    const source = await makeVideo(work, { name: 'source-1080p.mp4', seconds, width: 1920, height: 1080, fps: 30 });
    const rungs = ladderRungs(1920, 1080);
    const floorDir = path.join(work, 'floor');
    const floorArgs = () => {
      const job = ladderJob(source, floorDir, rungs, true, 30);
      return ['-y', '-v', 'error', '-i', source, ...job.options, job.output];
    };
    const worker = { ms: Infinity };
    const floor = { ms: Infinity };
    let made: MadeLadder | null = null;
    const rounds = Number(process.env.BENCH_LADDER_ROUNDS ?? (ctx.quick ? 1 : 2));
    // best of `rounds`, alternating: the machine's other load falls on both alike
    for (let round = 0; round < rounds; round++) {
      await rm(floorDir, { recursive: true, force: true });
      for (const r of rungs) await mkdir(path.join(floorDir, r.name), { recursive: true });
      let started = performance.now();
      await run(resolveFfmpegPath(), floorArgs());
      floor.ms = Math.min(floor.ms, performance.now() - started);
      const workDir = path.join(work, `ladder-${round}`);
      await mkdir(workDir);
      started = performance.now();
      // the time cap is the product's guard against hostile files, not part of the figure: a busy
      // machine must not turn a slow run into a failed one
      made = await makeLadder({ input: source, workDir, timeLimitScale: 20 });
      worker.ms = Math.min(worker.ms, performance.now() - started);
    }
    const ratio = floor.ms / worker.ms;
    const out: Array<Figure | string> = [
      `ladder: ${seconds} s of 1920x1080 at 30 fps with a tone (${((await stat(source)).size / MB).toFixed(1)} MB), rungs ${rungs.map((r) => r.name).join('/')}, best of ${rounds}`,
      figure('HLS ladder: probe, 3 rungs in one run, thumbnail strip', worker.ms / 1000, floor.ms / 1000, 's', {
        note: `floor: plain ffmpeg making the same 360/720/1080 ladder with the same settings in one command (no probe, no strip); target within 1.2x (ratio >= 0.83): ${ratio >= 1 / 1.2 ? 'ok' : 'MISSED'}`,
      }),
    ];
    out.push(...(await playlistLoads(ctx, work, made!)));
    return out;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function playlistLoads(ctx: BenchContext, work: string, ladder: MadeLadder): Promise<Array<Figure | string>> {
  const bench = await createBenchDb();
  const dist = path.join(work, 'dist');
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><html><head><title>bench</title></head><body><div id="root"></div></body></html>\n');
  try {
    const creator = await makeUser(bench.db, { isCreator: true });
    const fan = await makeUser(bench.db);
    await makeSubscription(bench.db, { subscriberId: fan.id, creatorId: creator.id });
    const post = await makePost(bench.db, null, { creatorId: creator.id, isPremium: true, kind: 'video' });
    await insertLadder(bench.db, { postId: post.id, position: 0, ladder: storedLadder(ladder, (file) => ladderKey(post.id, 0, file)), keys: [] });
    const { cookie } = await makeSessionCookie(bench.db, fan.id);
    const app = await startAppProcess(bench.url, { SERVE_SPA: 'true', DIST_DIR: dist, STORAGE_DIR: path.join(work, 'storage') });
    const out: Array<Figure | string> = [];
    try {
      const top = ladder.renditions.at(-1)!.name;
      for (const [label, file] of [
        ['master playlist', 'master.m3u8'],
        [`media playlist (${top}p, ${ladder.renditions.at(-1)!.segments.length} signed segment URLs)`, `${top}.m3u8`],
      ] as const) {
        const url = `${app.url}/hls/${post.id}/0/${file}`;
        const res = await fetch(url, { headers: { cookie } });
        const body = await res.text();
        if (res.status !== 200 || !body.startsWith('#EXTM3U')) throw new Error(`${file}: ${res.status} ${body.slice(0, 200)}`);
        // the floor: the same bytes' length as a static file, from the same server
        const staticName = `same-size-${file.replace('.m3u8', '')}.txt`;
        await writeFile(path.join(dist, 'assets', staticName), body);
        const staticUrl = `${app.url}/assets/${staticName}`;
        const check = await fetch(staticUrl, { headers: { cookie } });
        if (check.status !== 200 || (await check.text()).length !== body.length) throw new Error(`static floor: ${check.status}`);
        const opts = { connections: ctx.connections, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds, headers: { cookie } };
        const floor = await runLoad(staticUrl, opts);
        const measured = await runLoad(url, opts);
        out.push(
          loadFigure(`HLS ${label}, entitled fan`, measured, floor, `floor: a static file of the same size (${Buffer.byteLength(body)} B) served by the same app (express.static, same middleware)`),
        );
      }
    } finally {
      await app.stop();
    }
    return out;
  } finally {
    await bench.destroy();
  }
}
