import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PageRoute } from './first-data';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/** The SPA's route modules a page renders first (TanStack Router's split chunks of src/routes). */
const ROUTE_MODULES: Record<PageRoute['kind'], string[]> = {
  home: ['src/routes/index.tsx?tsr-split=component'],
  profile: [
    'src/features/profiles/profile-queries.ts',
    'src/routes/$username.index.tsx?tsr-split=loader',
    'src/routes/$username.index.tsx?tsr-split=component',
  ],
  post: ['src/routes/post.$id.tsx?tsr-split=component'],
  other: [],
};

/**
 * The script files of a page's route chunks and what they import, read from the build's
 * manifest (vite.config.ts `build.manifest`), so the page's HTML preloads them beside the entry's
 * own: without it the route's chunk is asked for only once the entry has run, a round trip
 * more before the first paint (issue 30 item 3). Files the entry already preloads are left out.
 * No manifest (an older build): no preloads, the chunks load as they always did.
 */
export function routeChunkReader(distDir: string): (route: PageRoute) => string[] {
  const file = path.join(distDir, '.vite/manifest.json');
  if (!existsSync(file)) return () => [];
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const closure = (keys: string[], seen = new Set<string>()) => {
    for (const key of keys) {
      if (seen.has(key) || !manifest[key]) continue;
      seen.add(key);
      closure(manifest[key].imports ?? [], seen);
    }
    return seen;
  };
  const entry = closure(Object.keys(manifest).filter((key) => manifest[key]!.isEntry));
  const byKind = Object.fromEntries(
    Object.entries(ROUTE_MODULES).map(([kind, modules]) => [
      kind,
      [...closure(modules)].filter((key) => !entry.has(key)).map((key) => `/${manifest[key]!.file}`),
    ]),
  ) as Record<PageRoute['kind'], string[]>;
  return (route) => byKind[route.kind];
}
