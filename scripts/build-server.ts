/**
 * The server and the worker as plain JavaScript: `scripts/serve.ts` and `worker/main.ts`, each
 * bundled with the modules of this repository into <outDir>/serve.mjs and <outDir>/worker.mjs
 * (shared code in chunks beside them), packages left to Node. Started with `node`, a copy is
 * ready in a third of the CPU that `node --import tsx` takes (6 s -> 2 s on 2 cores: tsx's loader
 * sees every one of the packages' modules on its way in), which the test runs pay for every copy
 * they start and stop. <outDir> must be inside the checkout, where Node finds node_modules.
 * Usage: tsx scripts/build-server.ts <outDir>
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { repoRoot } from '../core/repo-root';

/** The entry points, by the source file a test or an operator would otherwise start. */
export const SERVER_ENTRIES = { 'scripts/serve.ts': 'serve.mjs', 'worker/main.ts': 'worker.mjs' } as const;
export type ServerEntry = keyof typeof SERVER_ENTRIES;

export async function buildServer(outDir: string): Promise<string> {
  const out = path.resolve(repoRoot, outDir);
  await build({
    absWorkingDir: repoRoot,
    entryPoints: Object.entries(SERVER_ENTRIES).map(([input, output]) => ({ in: input, out: output.replace(/\.mjs$/, '') })),
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    logLevel: 'error',
  });
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!process.argv[2]) throw new Error('usage: tsx scripts/build-server.ts <outDir>');
  await buildServer(process.argv[2]);
}
