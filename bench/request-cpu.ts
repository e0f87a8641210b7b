/**
 * The app's CPU per request, by kind of request: a fixed number of requests against each URL, and
 * the CPU seconds the app's process used meanwhile (/proc), and PostgreSQL's: its backends serving
 * the bench's database, which is where a statement's planning shows. On a machine shared with other work a
 * rate moves with the neighbours; the CPU a request costs moves far less, so this is the figure
 * to compare two builds by. Requests that each add one layer to the last tell what each layer costs:
 *
 *   healthz           Express and the middleware every request passes (the request log skips it)
 *   404               ...plus the request log (a path no route answers)
 *   auth.me anonymous ...plus tRPC's adapter, context and an empty procedure
 *   auth.me signed in ...plus the session (from the copy's cache, or PostgreSQL every 5 s)
 *   feed / profile / thread   the lists (statements, rows, the answer's serialisation)
 *
 * A/B: give one or more other checkouts (e.g. `git archive <commit> | tar -x -C /tmp/base`, with
 * a node_modules link): every build is started on the same data and they are measured in turns,
 * round after round, so each round compares them in the same minute.
 *
 *   node --import tsx bench/request-cpu.ts [other checkout ...]
 *   CPU_REQUESTS=3000 CPU_ROUNDS=3 CPU_CONNECTIONS=10 CPU_ONLY=feed,profile
 */
import autocannon from 'autocannon';
import { sql } from 'kysely';
import path from 'node:path';
import { createSession, generateSessionToken } from '../server/auth/session';
import { createBenchDb } from './lib/bench-db';
import { seed } from './feed';
import { cpuSecondsOf, repoRoot, startAppProcess, type BenchProcess } from './lib/processes';

const REQUESTS = Number(process.env.CPU_REQUESTS ?? 3000);
const ROUNDS = Number(process.env.CPU_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.CPU_CONNECTIONS ?? 10);
const ONLY = process.env.CPU_ONLY?.split(',');
const dirs = [repoRoot, ...process.argv.slice(2).map((d) => path.resolve(d))];

const trpc = (proc: string, input?: unknown) => `/trpc/${proc}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`}`;

async function fire(url: string, headers: Record<string, string>, amount: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, amount, headers }, (err, done) => (err ? reject(err) : resolve(done)));
  });
}

const bench = await createBenchDb();
const apps: BenchProcess[] = [];
try {
  const started = Date.now();
  await seed(bench.db);
  const fan = await bench.db.selectFrom('profiles').select('id').where('username', '=', 'user501').executeTakeFirstOrThrow();
  const partner = await bench.db.selectFrom('profiles').select('id').where('username', '=', 'user4').executeTakeFirstOrThrow();
  // a thread of 200 messages between the fan and a creator
  await sql`
    insert into messages (sender_id, recipient_id, content, created_at, read_at)
    select case when k % 2 = 0 then ${fan.id}::uuid else ${partner.id}::uuid end,
           case when k % 2 = 0 then ${partner.id}::uuid else ${fan.id}::uuid end,
           'Message ' || k, now() - ((200 - k) || ' minutes')::interval, now()
    from generate_series(1, 200) k`.execute(bench.db);
  await sql`
    insert into conversations (user_id, partner_id, last_message_id, last_message_at)
    select x.u, x.p, x.id, x.created_at from (
      select distinct on (u, p) u, p, id, created_at
      from (select sender_id u, recipient_id p, id, created_at from messages union all select recipient_id, sender_id, id, created_at from messages) m
      order by u, p, created_at desc, id desc) x`.execute(bench.db);
  await sql`analyze`.execute(bench.db);
  const token = generateSessionToken();
  await createSession(bench.db, token, fan.id);
  const signedIn = { cookie: `session=${token}` };
  console.log(`seeded in ${Date.now() - started} ms; load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`);

  const targets = [
    { name: 'healthz', path: '/healthz', headers: {} },
    { name: '404', path: '/no-such-path', headers: {}, status: 404 },
    { name: 'auth.me anonymous', path: trpc('auth.me'), headers: {} },
    { name: 'auth.me signed in', path: trpc('auth.me'), headers: signedIn },
    { name: 'feed (5)', path: trpc('posts.feed', { limit: 5 }), headers: signedIn },
    { name: 'profile (12)', path: trpc('profiles.posts', { username: 'user4', limit: 12 }), headers: signedIn },
    { name: 'thread (20)', path: trpc('messages.thread', { username: 'user4' }), headers: signedIn },
  ].filter((t) => !ONLY || ONLY.some((o) => t.name.startsWith(o)));

  for (const dir of dirs) apps.push(await startAppProcess(bench.url, {}, { appDir: dir }));
  // each build answers every target as expected before anything is measured
  for (const app of apps) {
    for (const t of targets) {
      const res = await fetch(app.url + t.path, { headers: t.headers });
      const body = await res.text();
      if (res.status !== (t.status ?? 200) || (t.name.includes('signed in') && !body.includes('"id"'))) throw new Error(`${t.name}: ${res.status} ${body.slice(0, 200)}`);
    }
    for (const t of targets) await fire(app.url + t.path, t.headers, 500);
  }

  // PostgreSQL's CPU: every backend on the bench's database (the apps' pools stay open between rounds)
  const backends = async () =>
    (await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(bench.db)).rows.map((r) => r.pid);
  // per backend, so a pool's idle connection closing meanwhile takes none of the others' time away
  const pgCpu = async () => {
    const byPid = new Map<number, number>();
    for (const pid of await backends()) {
      try {
        byPid.set(pid, cpuSecondsOf(pid));
      } catch {
        // a backend that ended meanwhile
      }
    }
    return byPid;
  };
  const pgSince = (before: Map<number, number>, after: Map<number, number>) => {
    let total = 0;
    for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
    return total;
  };
  const results = new Map<string, number[]>();
  const pgResults = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round += 1) {
    // alternate which build goes first
    const order = round % 2 === 0 ? apps : [...apps].reverse();
    for (const t of targets) {
      for (const app of order) {
        const before = app.cpu();
        const pgBefore = await pgCpu();
        const r = await fire(app.url + t.path, t.headers, REQUESTS);
        const ms = ((app.cpu() - before) * 1000) / REQUESTS;
        const pgMs = (pgSince(pgBefore, await pgCpu()) * 1000) / REQUESTS;
        const bad = t.status ? r['2xx'] + r['5xx'] : r.non2xx;
        if (bad + r.errors > 0) throw new Error(`${t.name}: ${bad} unexpected answers, ${r.errors} errors`);
        const key = `${t.name}\t${dirs[apps.indexOf(app)]}`;
        results.set(key, [...(results.get(key) ?? []), ms]);
        pgResults.set(key, [...(pgResults.get(key) ?? []), pgMs]);
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`\nCPU ms per request (${REQUESTS} requests, ${CONNECTIONS} connections; median of ${ROUNDS} rounds, then each round)`);
  for (const [key, xs] of results) console.log(`${key.padEnd(60)}\t${median(xs).toFixed(2)}\t${xs.map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`\nPostgreSQL's CPU ms per request (its backends on the bench's database; same runs)`);
  for (const [key, xs] of pgResults) console.log(`${key.padEnd(60)}\t${median(xs).toFixed(2)}\t${xs.map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  for (const app of apps) await app.stop();
  await bench.destroy();
}
process.exit(0);
