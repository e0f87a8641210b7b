/**
 * `npm run dev`: migrates, then runs Vite with HMR on http://localhost:5173 (proxying /trpc,
 * /socket.io, /media... to the API on :3000) and the server and worker under tsx watch.
 */
import { spawn, spawnSync } from 'node:child_process';

const migrate = spawnSync('npx', ['tsx', 'core/db/migrate-cli.ts'], { stdio: 'inherit' });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const devEnv = { ...process.env, NODE_ENV: 'development' };
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'scripts/serve.ts'], {
    stdio: 'inherit',
    env: { ...devEnv, SERVE_SPA: 'false', RUN_WORKER: 'false', APP_URL: process.env.APP_URL ?? 'http://localhost:5173' },
  }),
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'worker/main.ts'], {
    stdio: 'inherit',
    env: { ...devEnv, APP_URL: process.env.APP_URL ?? 'http://localhost:5173' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit', env: devEnv }),
];

const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
for (const child of children) child.once('exit', (code) => code && code !== 0 && stop());
