/**
 * The app as an operator runs it: real processes (`scripts/serve.ts`, `worker/main.ts`, from the
 * run's bundle: server-command.ts), and what is left of them afterwards. For the reliability and
 * shutdown tests, which stop services and send signals (a private redis-server: private-redis.ts).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerEntry } from '../../scripts/build-server';
import { serverCommand } from './server-command';
import type { TestClient } from './test-server';

/**
 * Ports the tests' own servers take: below Linux's ephemeral range (32768-60999), where the
 * kernel picks the local end of every outgoing connection. A port chosen in that range (as
 * `listen(0)` does) could be taken by a connection before the server bound it, or before a
 * stopped redis-server started again on it: "redis-server did not start on 42367" under load.
 */
const TEST_PORTS = { from: 20_000, count: 12_000 };

const canBind = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/** A port no one listens on now, from the tests' range (random: two test workers choose at once). */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = TEST_PORTS.from + Math.floor(Math.random() * TEST_PORTS.count);
    if (await canBind(port)) return port;
  }
  throw new Error('no free port below the ephemeral range');
}

export interface AppProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
  alive(): boolean;
}

/** The server or the worker with the test's settings; its own process group (detached) so a test can clean up after it. */
export function startProcess(script: ServerEntry, env: Record<string, string>): AppProcess {
  const { command, args } = serverCommand(script);
  const child = spawn(command, args, {
    env: { ...process.env, NODE_ENV: 'test', SERVE_SPA: 'false', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output, alive: () => child.exitCode === null && child.signalCode === null };
}

/** Kills a process group that is still there (cleanup after a failed test). */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL') {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Waits for the server at `url` to answer /readyz; with its `process`, fails at once (with its output) if that exits. */
export async function waitUntilReady(url: string, timeoutMs = 30_000, process?: AppProcess) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return;
    if (process && !process.alive()) throw new Error(`${url} exited before it was ready:\n${process.output().slice(-2_000)}`);
    await sleep(100);
  }
  throw new Error(`${url} did not become ready`);
}

/** Running (not a zombie waiting to be reaped). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the state follows the command name in parentheses
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Every process whose command line contains `needle` (ps), with its pid. */
export function processesMatching(needle: string): { pid: number; args: string }[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[2]!.includes(needle))
    .map((m) => ({ pid: Number(m[1]), args: m[2]! }))
    .filter((p) => isRunning(p.pid));
}

/** The descendants of `pid` (children, grandchildren...), from /proc. */
export function descendantsOf(pid: number): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' });
  const children = new Map<number, number[]>();
  for (const line of out.split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (!child || parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      found.push(c);
      walk(c);
    }
  };
  walk(pid);
  return found;
}

/**
 * Waits for `process` to log `line` (a start-up line): as long as it takes while the process
 * lives (a loaded machine is slow, not wrong), and fails at once with its output if it exits.
 */
export async function waitForLine(process: AppProcess, line: string, label: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!process.output().includes(line)) {
    if (!process.alive()) throw new Error(`${label} exited before logging ${line}:\n${process.output().slice(-2_000)}`);
    if (Date.now() > deadline) throw new Error(`${label} did not log ${line} within ${timeoutMs / 1000} s:\n${process.output().slice(-2_000)}`);
    await sleep(100);
  }
}

/** A client of a server started by startProcess, signed in with `sessionToken`: enough for the tus helpers. */
export function processClient(baseUrl: string, sessionToken: string | null): TestClient {
  const send = (pathname: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (sessionToken) headers.set('cookie', `session=${sessionToken}`);
    headers.set('origin', baseUrl);
    return fetch(`${baseUrl}${pathname}`, { ...init, headers });
  };
  const unsupported = () => {
    throw new Error('not available for a server process');
  };
  return {
    fetch: send,
    trpc: undefined as never,
    cookies: unsupported,
    lastSetCookie: unsupported,
    lastResponse: unsupported,
    setOrigin: unsupported,
  };
}

/** A tRPC mutation over plain HTTP (superjson's wire shape for plain JSON input). */
export async function trpcMutation(client: TestClient, procedure: string, input: unknown): Promise<{ status: number; ms: number; body: unknown }> {
  const started = Date.now();
  const res = await client.fetch(`/trpc/${procedure}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ json: input }),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, ms: Date.now() - started, body: await res.json().catch(() => null) };
}
