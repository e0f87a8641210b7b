import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { routeChunkReader, routeFile } from './route-chunks';

/** A build's manifest as Vite writes it: the entry, a profile's split loader and component, what they import. */
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react-1.js'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  'src/features/profiles/profile-queries.ts': { file: 'assets/profile-queries-1.js', imports: ['_react-1.js'] },
  'src/routes/$username.index.tsx?tsr-split=loader': { file: 'assets/username.index-loader-1.js', imports: ['src/features/profiles/profile-queries.ts'] },
  'src/routes/$username.index.tsx?tsr-split=component': { file: 'assets/username.index-1.js', imports: ['_react-1.js'] },
  'src/routes/$username.index.tsx?tsr-split=errorComponent': { file: 'assets/username.index-error-1.js' },
  'src/routes/post.$id.tsx?tsr-split=component': { file: 'assets/post.id-1.js' },
};

const dist = mkdtempSync(path.join(tmpdir(), 'route-chunks-'));
mkdirSync(path.join(dist, '.vite'));
writeFileSync(path.join(dist, '.vite/manifest.json'), JSON.stringify(MANIFEST));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe("a page's route chunks", () => {
  it('are named by the route ids, as the flat route files are', () => {
    expect(['__root__', '/', '/$username', '/$username/', '/post/$id', '/_authed/settings_/account'].map(routeFile)).toEqual([
      'src/routes/__root__.tsx',
      'src/routes/index.tsx',
      'src/routes/$username.tsx',
      'src/routes/$username.index.tsx',
      'src/routes/post.$id.tsx',
      'src/routes/_authed.settings_.account.tsx',
    ]);
  });

  it("are the matched routes' split loader and component with what they import, without what the entry loads", () => {
    const chunks = routeChunkReader(dist);
    expect(chunks(['__root__', '/$username', '/$username/']).sort()).toEqual(
      ['/assets/profile-queries-1.js', '/assets/username.index-1.js', '/assets/username.index-loader-1.js'].sort(),
    );
    expect(chunks(['__root__', '/post/$id'])).toEqual(['/assets/post.id-1.js']);
    expect(chunks(['__root__'])).toEqual([]);
  });
});
