import { expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from '../../../core/repo-root';
import { serverCommand } from '../../helpers/server-command';

/** Another copy of the server (its own settings in `env`, listening on PORT), once it answers /readyz. */
export async function startServerProcess(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const { command, args } = serverCommand('scripts/serve.ts');
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: 'ignore' });
  await expect.poll(() => fetch(`http://127.0.0.1:${env.PORT}/readyz`).then((r) => r.ok, () => false), { timeout: 90_000 }).toBe(true);
  return child;
}
