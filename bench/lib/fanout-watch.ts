import os from 'node:os';
import pg from 'pg';
import { cpuSecondsOf } from './processes';

/**
 * Where the time of a fan-out goes (issue 50 item 4), for the scenarios that time a like during
 * one (notify-fanout, mass-message): the CPU seconds the app, the worker, this bench process and
 * the database's backends of this run used in the window, the app's event-loop delay in it (its
 * /metrics: prom-client's histogram restarts at each scrape), the app's own time for the like
 * (its http_request_duration_seconds), and what PostgreSQL's backends of this database waited on
 * (pg_stat_activity sampled every 100 ms). Printed as lines beside the figures.
 */
export interface FanoutWatch {
  /** the window starts (call right before the work is started) */
  start(): Promise<void>;
  /** the window ends: lines describing it */
  stop(): Promise<string[]>;
}

interface WatchTargets {
  databaseUrl: string;
  app: { pid: number; url: string };
  worker: { pid: number };
  metricsToken: string;
  /** other processes of the run whose CPU is worth a figure (the push service) */
  others?: { name: string; pid: number }[];
}

const cpuOrZero = (pid: number) => {
  try {
    return cpuSecondsOf(pid);
  } catch {
    return 0;
  }
};

async function scrape(url: string, token: string): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  return res.ok ? res.text() : '';
}

const metric = (text: string, name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN);

/** The like's own count and sum of seconds in the app (tRPC route posts.like / posts.unlike). */
function likeServerTime(text: string): { count: number; sum: number } {
  let count = 0;
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('http_request_duration_seconds_') || !/route="[^"]*posts\.(un)?like/.test(line)) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith('http_request_duration_seconds_count')) count += value;
    else if (line.startsWith('http_request_duration_seconds_sum')) sum += value;
  }
  return { count, sum };
}

export function watchFanout(targets: WatchTargets, label = 'watch'): FanoutWatch {
  const client = new pg.Client({ connectionString: targets.databaseUrl });
  const waits = new Map<string, number>();
  let samples = 0;
  let timer: NodeJS.Timeout | null = null;
  const backendPids = new Set<number>();
  let before = { app: 0, worker: 0, bench: 0, others: [] as number[], db: new Map<number, number>(), at: 0, load: 0 };
  const others = targets.others ?? [];
  let likesBefore = { count: 0, sum: 0 };
  let commitsBefore = 0;
  const commits = async () =>
    Number((await client.query<{ n: string }>(`select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`)).rows[0]!.n);
  const sample = async () => {
    const { rows } = await client.query<{ pid: number; state: string | null; wait: string | null }>(
      `select pid, state, wait_event_type || ':' || wait_event as wait from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()`,
    );
    samples++;
    for (const r of rows) {
      backendPids.add(r.pid);
      if (r.state !== 'active') continue;
      const key = r.wait ?? 'CPU';
      waits.set(key, (waits.get(key) ?? 0) + 1);
    }
  };
  const dbCpu = () => new Map([...backendPids].map((pid) => [pid, cpuOrZero(pid)]));
  return {
    async start() {
      await client.connect();
      await sample();
      commitsBefore = await commits();
      const metrics = await scrape(targets.app.url, targets.metricsToken);
      likesBefore = likeServerTime(metrics);
      const cpu = process.cpuUsage();
      before = { app: cpuOrZero(targets.app.pid), worker: cpuOrZero(targets.worker.pid), bench: (cpu.user + cpu.system) / 1e6, others: others.map((o) => cpuOrZero(o.pid)), db: dbCpu(), at: performance.now(), load: os.loadavg()[0]! };
      waits.clear();
      samples = 0;
      const tick = () => {
        timer = setTimeout(() => void sample().then(tick, tick), 100);
      };
      tick();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      const seconds = (performance.now() - before.at) / 1000;
      const metrics = await scrape(targets.app.url, targets.metricsToken);
      const likes = likeServerTime(metrics);
      const cpu = process.cpuUsage();
      const dbNow = dbCpu();
      let dbSeconds = 0;
      for (const [pid, s] of dbNow) dbSeconds += s - (before.db.get(pid) ?? 0);
      const transactions = (await commits()) - commitsBefore;
      await client.end();
      const fmt = (n: number) => n.toFixed(1);
      const likeCount = likes.count - likesBefore.count;
      const topWaits = [...waits.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
      return [
        `  ${label}: ${fmt(seconds)} s, load average ${before.load.toFixed(1)} -> ${os.loadavg()[0]!.toFixed(1)}; CPU s: app ${fmt(cpuOrZero(targets.app.pid) - before.app)}, worker ${fmt(cpuOrZero(targets.worker.pid) - before.worker)}, ` +
          `bench ${fmt((cpu.user + cpu.system) / 1e6 - before.bench)}, ${others.map((o, i) => `${o.name} ${fmt(cpuOrZero(o.pid) - before.others[i]!)}, `).join('')}PostgreSQL backends of this database ${fmt(dbSeconds)} (${backendPids.size} pids); ${transactions} transactions`,
        `  ${label}: app event loop delay in the window p99 ${(metric(metrics, 'nodejs_eventloop_lag_p99_seconds') * 1000).toFixed(1)} ms, max ${(metric(metrics, 'nodejs_eventloop_lag_max_seconds') * 1000).toFixed(1)} ms; ` +
          `the like in the app: ${likeCount} requests, mean ${likeCount ? ((1000 * (likes.sum - likesBefore.sum)) / likeCount).toFixed(1) : '-'} ms`,
        `  ${label}: active backends' waits (${samples} samples of pg_stat_activity): ${topWaits.map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
      ];
    },
  };
}
