import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBuildCurrent, stampBuild, webInputsHash } from './web-build-stamp';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'web-stamp-'));
  for (const dir of ['src/routes', 'common', 'docs', 'tests']) await mkdir(path.join(root, dir), { recursive: true });
  await writeFile(path.join(root, 'index.html'), '<div id="root"></div>');
  await writeFile(path.join(root, 'src/routes/index.tsx'), 'export const a = 1;');
  await writeFile(path.join(root, 'common/money.ts'), 'export const b = 2;');
  await writeFile(path.join(root, 'docs/design.md'), '# design');
  await writeFile(path.join(root, 'tests/x.test.ts'), 'test');
});
afterEach(async () => rm(root, { recursive: true, force: true }));

const env = { NODE_ENV: 'production', HOME: '/root' };
const hash = (e: NodeJS.ProcessEnv = env) => webInputsHash(e, root);

describe('the web build stamp (npm start skips a build of the same sources)', () => {
  it('changes with any source the bundle may import, the page, the lock file and the VITE_ variables', async () => {
    const before = await hash();
    expect(await hash()).toBe(before);
    const changes: [string, string][] = [
      ['src/routes/index.tsx', 'export const a = 3;'],
      ['src/routes/new-route.tsx', 'export {};'],
      ['common/money.ts', 'export const b = 4;'],
      ['index.html', '<div id="app"></div>'],
      ['package-lock.json', '{"lockfileVersion":3}'],
    ];
    const seen = new Set([before]);
    for (const [file, text] of changes) {
      await writeFile(path.join(root, file), text);
      const now = await hash();
      expect(seen.has(now), file).toBe(false);
      seen.add(now);
    }
    expect(seen.has(await hash({ ...env, VITE_API: 'x' }))).toBe(false);
    expect(seen.has(await hash({ ...env, NODE_ENV: 'development' }))).toBe(false);
  });

  it('stays the same for what no bundle reads: docs, tests, other variables', async () => {
    const before = await hash();
    await writeFile(path.join(root, 'docs/design.md'), '# design, revised');
    await writeFile(path.join(root, 'tests/x.test.ts'), 'another test');
    expect(await hash({ ...env, DATABASE_URL: 'postgres://elsewhere' })).toBe(before);
  });

  it('calls a build current only once it is stamped with the same inputs', async () => {
    const out = path.join(root, 'dist');
    await mkdir(out);
    const inputs = await hash();
    expect(await isBuildCurrent(out, inputs)).toBe(false);
    await stampBuild(out, inputs);
    expect(await isBuildCurrent(out, inputs)).toBe(true);
    await writeFile(path.join(root, 'src/routes/index.tsx'), 'export const a = 5;');
    expect(await isBuildCurrent(out, await hash())).toBe(false);
  });
});
