/**
 * `npm run dev`: Vite with HMR on http://localhost:5173 (proxying /trpc, /socket.io, /media... to
 * the API), and the server + worker restarted by tsx watch on every change.
 */
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'development', SERVE_SPA: 'false', RUN_WORKER: 'false' },
  }),
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'worker/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'development' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit', env: process.env }),
];

const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
for (const child of children) child.once('exit', (code) => code && code !== 0 && stop());
