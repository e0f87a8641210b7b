/**
 * A Redis Cluster of three masters on loopback (redis-server from the system, no Docker), for the
 * integration test that runs the queues on one and for the two-copies bench: each node on a free
 * port with cluster mode on and nothing persisted, the cluster made by `redis-cli --cluster create`
 * (no replicas), and ready once every node says `cluster_state:ok`. `stop` ends the three servers
 * and removes their folder.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RunningRedisCluster {
  /** REDIS_CLUSTER_NODES: `127.0.0.1:<port>,...` */
  nodes: string;
  stop(): Promise<void>;
}

/** Whether redis-server (and redis-cli) can be started here; the test skips with a message when not. */
export async function redisServerAvailable(): Promise<boolean> {
  try {
    await run('redis-server', ['--version']);
    await run('redis-cli', ['--version']);
    return true;
  } catch {
    return false;
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function cli(port: number, ...args: string[]): Promise<string> {
  return (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args])).stdout;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Redis Cluster: ${what} took over ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

export async function startRedisCluster(masters = 3): Promise<RunningRedisCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'redis-cluster-'));
  const ports: number[] = [];
  const servers: ChildProcess[] = [];
  const stop = async () => {
    for (const server of servers) if (server.exitCode === null) server.kill('SIGKILL');
    await Promise.all(servers.map((s) => (s.exitCode === null && s.signalCode === null ? new Promise((r) => s.once('exit', r)) : null)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      const port = await freePort();
      ports.push(port);
      const server = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '5000', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
        { stdio: 'ignore' },
      );
      servers.push(server);
    }
    for (const port of ports) await until(`node ${port} starting`, async () => (await cli(port, 'ping')).trim() === 'PONG');
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of ports) await until(`node ${port} joining`, async () => (await cli(port, 'cluster', 'info')).includes('cluster_state:ok'));
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes: ports.map((p) => `127.0.0.1:${p}`).join(','), stop };
}
