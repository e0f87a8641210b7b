import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from '../../core/repo-root';

/**
 * The bench's processes: the app as production runs it (`node --import tsx scripts/serve.ts`,
 * NODE_ENV=production, its log going where a container's would, workers off), the floor in a
 * process of its own, and the load generator in a third, so no figure includes the cost of
 * another part running in the same event loop.
 */
export { repoRoot };

export interface BenchProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** resident memory (VmRSS) in bytes, from /proc */
  rss(): number;
  /** CPU seconds used so far */
  cpu(): number;
  stop(): Promise<void>;
  output(): string;
  /** the heap in use right after a full collection, for a process started with `heapProbe` */
  heapAfterGc(): Promise<{ heapUsed: number; gcMs: number }>;
}

/** Options of the processes the soak measures: `heapProbe` loads bench/lib/heap-probe.ts into it. */
export interface MeasuredProcessOptions {
  heapProbe?: boolean;
  /** another checkout of the app to start (an older build, for A/B runs: bench/request-cpu.ts) */
  appDir?: string;
  /** how long the app may take to answer /readyz (60 s; the scale bench starts it on a loaded machine after a long seed) */
  readyTimeoutMs?: number;
}

const probeFile = () => path.join(tmpdir(), `bench-heap-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
const probeArgs = (file: string | null): { env: Record<string, string>; nodeArgs: string[]; preload: string[] } =>
  file ? { env: { HEAP_PROBE_FILE: file }, nodeArgs: ['--expose-gc'], preload: ['./bench/lib/heap-probe.ts'] } : { env: {}, nodeArgs: [], preload: [] };

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const started = new Set<ChildProcess>();
/** Every process the bench started, killed (on exit or failure): a bench never leaves servers behind. */
export function killAll() {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
process.once('exit', killAll);

export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
}

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 10 ms). */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function spawnNode(script: string, env: Record<string, string>, args: string[] = [], nodeArgs: string[] = [], preload: string[] = [], cwd = repoRoot) {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', ...preload.flatMap((m) => ['--import', m]), script, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let output = '';
  // the app's log is read and dropped as a log collector would; the last bit is kept for errors
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-8_000);
    // BENCH_APP_OUTPUT=/tmp/app keeps all of it, one file a process (/tmp/app.<pid>): with
    // BENCH_APP_NODE_ARGS=--trace-gc-nvp, what each collection kept and promoted
    if (process.env.BENCH_APP_OUTPUT) appendFileSync(`${process.env.BENCH_APP_OUTPUT}.${child.pid}`, d);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, output: () => output };
}

async function waitFor(url: string, child: ChildProcess, output: () => string, timeoutMs = Number(process.env.BENCH_START_TIMEOUT_MS ?? 180_000)) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url} exited: ${output()}`);
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await sleep(100);
  }
  throw new Error(`${url} did not become ready: ${output()}`);
}

/**
 * node's flags for the server, as package.json's `start` and `serve` and the Dockerfile give them
 * (a unit test holds the three alike):
 * - young-generation semi-spaces of 64 MiB, so a copy under load collects its short-lived garbage
 *   (a request's rows, its answer) a quarter as often, in pauses every request in flight waits
 *   for (docs/performance.md, "The young generation");
 * - no allocation-site pretenuring: V8 otherwise decided under load to make pg's rows straight in
 *   the old generation, where they died by the megabyte and held their young buffers through
 *   every minor collection until the next full one, whose marking is the lists' slowest
 *   hundredth (docs/performance.md, "Spread objects outlive their request").
 */
export const SERVER_NODE_ARGS = ['--max-semi-space-size=64', '--no-allocation-site-pretenuring'];

/**
 * The app (`scripts/serve.ts`, as `npm run serve` and the Dockerfile start it) on a free port.
 * BENCH_APP_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=bench/out/profiles`) is passed to node too,
 * and BENCH_APP_OUTPUT keeps its output (spawnNode).
 */
export async function startAppProcess(databaseUrl: string, env: Record<string, string> = {}, options: MeasuredProcessOptions = {}): Promise<BenchProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const probe = options.heapProbe ? probeFile() : null;
  const extra = probeArgs(probe);
  const nodeArgs = [...SERVER_NODE_ARGS, ...(process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean), ...extra.nodeArgs];
  const p = spawnNode(
    'scripts/serve.ts',
    {
      NODE_ENV: 'production',
      SERVE_SPA: 'false',
      RUN_WORKER: 'false',
      PORT: String(port),
      APP_URL: url,
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: `bench-${process.pid}`,
      // every simulated user writes from 127.0.0.1: the budgets are still counted (their cost is
      // measured), but one address's budget must not refuse the load
      WRITE_BUDGET_SCALE: '1000',
      ...extra.env,
      ...env,
    },
    [],
    nodeArgs,
    // the heap probe is this checkout's file, wherever the app comes from
    extra.preload.map((m) => path.resolve(repoRoot, m)),
    options.appDir ?? repoRoot,
  );
  await waitFor(`${url}/readyz`, p.child, p.output, options.readyTimeoutMs);
  return handle(url, p, probe);
}

/** The BullMQ workers (`worker/main.ts`, as `npm run worker` starts them), with their own /metrics on a free port. */
export async function startWorkerProcess(databaseUrl: string, env: Record<string, string> = {}, options: MeasuredProcessOptions = {}): Promise<BenchProcess & { metricsUrl: string }> {
  const port = await freePort();
  const probe = options.heapProbe ? probeFile() : null;
  const extra = probeArgs(probe);
  const p = spawnNode(
    'worker/main.ts',
    {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: `bench-${process.pid}`,
      WORKER_METRICS_PORT: String(port),
      ...extra.env,
      ...env,
    },
    [],
    extra.nodeArgs,
    extra.preload,
  );
  const metricsUrl = `http://127.0.0.1:${port}/metrics`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (!(await fetch(metricsUrl).then(() => true, () => false))) {
    if (p.child.exitCode !== null || Date.now() > deadline) throw new Error(`worker did not start: ${p.output()}`);
    await sleep(200);
  }
  return { ...handle(metricsUrl, p, probe), metricsUrl };
}

export interface FloorRoute {
  /** SQL with $n parameters */
  sql: string;
  /** parameter values; the string '$session' is replaced by the request's session id */
  values: unknown[];
  /** sent as a named prepared statement, planned once per connection as the app's lists are (core/db/prepared-statements.ts) */
  prepared?: boolean;
}

/** The floor (bench/floor-server.ts): bare node:http + pg answering `/?r=<index>` with route `index`'s rows. */
export async function startFloorProcess(databaseUrl: string, routes: FloorRoute[], env: Record<string, string> = {}): Promise<BenchProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const p = spawnNode('bench/floor-server.ts', { FLOOR_PORT: String(port), FLOOR_DATABASE_URL: databaseUrl, FLOOR_ROUTES: JSON.stringify(routes), ...env });
  await waitFor(`${url}/ready`, p.child, p.output);
  return handle(url, p);
}

function handle(url: string, p: ReturnType<typeof spawnNode>, probe: string | null = null): BenchProcess {
  return {
    url,
    pid: p.child.pid!,
    child: p.child,
    rss: () => rssOf(p.child.pid!),
    cpu: () => cpuSecondsOf(p.child.pid!),
    output: p.output,
    async heapAfterGc() {
      if (!probe) throw new Error('this process was started without the heap probe');
      rmSync(probe, { force: true });
      p.child.kill('SIGUSR2');
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        try {
          return JSON.parse(readFileSync(probe, 'utf8')) as { heapUsed: number; gcMs: number };
        } catch {
          await sleep(20);
        }
      }
      throw new Error(`no heap reading within 10 s: ${p.output()}`);
    },
    async stop() {
      if (p.child.exitCode === null) p.child.kill('SIGTERM');
      const timer = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
      await p.exited;
      clearTimeout(timer);
      started.delete(p.child);
      if (probe) rmSync(probe, { force: true });
    },
  };
}

/** A stand-in push service (bench/push-receiver.ts) in a process of its own: `count()` is how many pushes it took and when the last came (epoch ms). */
export async function startPushReceiverProcess(): Promise<BenchProcess & { count(): Promise<{ pushes: number; lastAt: number }> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const p = spawnNode('bench/push-receiver.ts', { PUSH_RECEIVER_PORT: String(port) });
  await waitFor(`${url}/ready`, p.child, p.output);
  return { ...handle(url, p), count: async () => (await (await fetch(`${url}/count`)).json()) as { pushes: number; lastAt: number } };
}

/** Runs a bench script in a process of its own and returns what it printed last as JSON. */
export async function runNodeJson<T>(script: string, input: unknown): Promise<T> {
  const p = spawnNode(script, {}, [JSON.stringify(input)]);
  await p.exited;
  started.delete(p.child);
  const last = p.output().trim().split('\n').at(-1) ?? '';
  if (p.child.exitCode !== 0) throw new Error(`${script} failed: ${p.output()}`);
  return JSON.parse(last) as T;
}
