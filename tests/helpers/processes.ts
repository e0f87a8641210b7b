/**
 * The app as an operator runs it: real processes (`scripts/serve.ts`, `worker/main.ts`, from the
 * run's bundle: server-command.ts), a private `redis-server`, and what is left of them afterwards. For the
 * reliability and shutdown tests, which stop services and send signals.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerEntry } from '../../scripts/build-server';
import { serverCommand } from './server-command';
import type { TestClient } from './test-server';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

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

export async function waitUntilReady(url: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return;
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

/** A redis-server of the test's own on `port`, empty (no snapshot, no AOF), that the test may stop and start again. */
export async function startRedisServer(port: number): Promise<{ stop(): Promise<void> }> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = createServer();
      // the port is taken once redis listens
      socket.once('error', () => resolve(true));
      socket.listen(port, '127.0.0.1', () => socket.close(() => resolve(false)));
    });
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`redis-server did not start on ${port}`);
    await sleep(50);
  }
  return {
    async stop() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
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
