/**
 * `npm run build`: the web app (client bundle into <outDir>) and its server renderer
 * (src/entry-server.tsx into <outDir>/.ssr, a dot folder the static file handler never serves),
 * built side by side in one process: the renderer is a single file with its packages left to
 * Node and no route splitting, so it costs far less than a second client build.
 * Usage: tsx scripts/build-web.ts [outDir] [--if-changed] (default: DIST_DIR or dist); with
 * --if-changed (`npm start`), a build stamped with the same inputs (web-build-stamp.ts) is kept.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { repoRoot } from '../core/repo-root';
import { isBuildCurrent, stampBuild, webInputsHash } from './web-build-stamp';

/** Where the server renderer is inside a build (server/http/server-render.ts imports it). */
export const SSR_DIR = '.ssr';

export async function buildWeb(outDir: string, logLevel: 'warn' | 'error' | 'info' = 'warn'): Promise<void> {
  const out = path.resolve(repoRoot, outDir);
  // both builds write under `out`, so neither may empty it: it is emptied once, first
  await rm(out, { recursive: true, force: true });
  await Promise.all([
    build({ root: repoRoot, logLevel, build: { outDir: out, emptyOutDir: false } }),
    buildServerRenderer(out, logLevel),
  ]);
}

/**
 * The server renderer alone, into <outDir>/.ssr (the integration tests build only this). `entry`
 * is src/entry-server.tsx, or a test's own entry over it (a route tree with a route added).
 */
export async function buildServerRenderer(outDir: string, logLevel: 'warn' | 'error' | 'info' = 'warn', entry = 'src/entry-server.tsx'): Promise<void> {
  await build({
    root: repoRoot,
    logLevel,
    // not vite.config.ts: the renderer needs no CSS, no chunks and no route splitting (the
    // router plugin's splitting was most of its time); the route tree is src/routeTree.gen.ts
    configFile: false,
    plugins: [react()],
    publicDir: false,
    // packages bundled in: a build may live outside the repository (tests, the bench), where
    // Node could not resolve them from the bundle's own folder
    ssr: { noExternal: true },
    build: {
      ssr: entry,
      outDir: path.join(path.resolve(repoRoot, outDir), SSR_DIR),
      emptyOutDir: false,
      manifest: false,
      sourcemap: false,
      minify: false,
      // named as the server imports it, whichever the entry's own file name
      rolldownOptions: { output: { codeSplitting: false, entryFileNames: 'entry-server.js' } },
    },
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outDir = args.find((a) => !a.startsWith('--')) ?? process.env.DIST_DIR ?? 'dist';
  const inputs = await webInputsHash();
  if (args.includes('--if-changed') && (await isBuildCurrent(outDir, inputs))) {
    console.log('The web app is built from these sources already: build skipped.');
  } else {
    await buildWeb(outDir);
    await stampBuild(outDir, inputs);
  }
}
