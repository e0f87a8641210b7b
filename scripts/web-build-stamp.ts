import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../core/repo-root';

/**
 * What a web build was made from, so `npm start` can skip a build whose inputs have not changed:
 * the hash of every source file the bundle could import (src/ and the code below it), the page,
 * public/, the build's configuration and the installed packages (package-lock.json), and the
 * NODE_ENV/VITE_ variables vite reads. Wider than the bundle's true inputs on purpose: a change
 * to server code rebuilds for nothing, but no change can be served stale.
 */
const INPUT_DIRS = ['src', 'common', 'domain', 'core', 'server', 'public'];
const INPUT_FILES = ['index.html', 'vite.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json', 'scripts/build-web.ts', 'scripts/web-build-stamp.ts'];

/** The file in the build folder that holds its inputs' hash. */
export const STAMP_FILE = '.build-stamp';

async function filesUnder(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

/** `root`: the checkout (its tests pass a folder of their own). */
export async function webInputsHash(env: NodeJS.ProcessEnv = process.env, root = repoRoot): Promise<string> {
  const files = [...INPUT_FILES, ...(await Promise.all(INPUT_DIRS.map((dir) => filesUnder(root, dir)))).flat()].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    const bytes = await readFile(path.join(root, file)).catch(() => Buffer.from('(missing)'));
    hash.update(file).update('\0').update(bytes).update('\0');
  }
  const vars = Object.entries(env).filter(([name]) => name === 'NODE_ENV' || name.startsWith('VITE_'));
  hash.update(JSON.stringify(vars.sort(([a], [b]) => a.localeCompare(b))));
  return hash.digest('hex');
}

/** True when `outDir` holds a finished build of exactly these inputs. */
export async function isBuildCurrent(outDir: string, inputsHash: string): Promise<boolean> {
  const stamp = await readFile(path.join(path.resolve(repoRoot, outDir), STAMP_FILE), 'utf8').catch(() => null);
  return stamp === inputsHash;
}

/** Written last, once both builds are complete: a build that stopped half-way has no stamp. */
export async function stampBuild(outDir: string, inputsHash: string): Promise<void> {
  await writeFile(path.join(path.resolve(repoRoot, outDir), STAMP_FILE), inputsHash);
}
