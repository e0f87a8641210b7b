import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/**
 * The file of a route (src/routes, flat file names): `/` is index.tsx, `/$username/` is
 * $username.index.tsx, `/post/$id` is post.$id.tsx, `/_authed/settings_/account` is
 * _authed.settings_.account.tsx.
 */
export function routeFile(routeId: string): string {
  const name = routeId.replace(/^\//, '').replace(/\/$/, '/index').replaceAll('/', '.');
  return `src/routes/${name || 'index'}.tsx`;
}

/** The split chunks of a route a page renders first: its loader (when split) and its component. */
const SPLIT_PARTS = ['loader', 'component'];

/**
 * The script files of a page's route chunks and what they import, read from the build's
 * manifest (vite.config.ts `build.manifest`), so the page's HTML preloads them beside the entry's
 * own: without it the route's chunk is asked for only once the entry has run, a round trip
 * more before the first paint (issue 30 item 3). Files the entry already preloads are left out.
 * No manifest (an older build): no preloads, the chunks load as they always did.
 */
export function routeChunkReader(distDir: string): (routeIds: string[]) => string[] {
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
  const byRoutes = new Map<string, string[]>();
  return (routeIds) => {
    const key = routeIds.join('\n');
    let files = byRoutes.get(key);
    if (!files) {
      const modules = routeIds.flatMap((id) => SPLIT_PARTS.map((part) => `${routeFile(id)}?tsr-split=${part}`));
      files = [...closure(modules)].filter((key) => !entry.has(key)).map((key) => `/${manifest[key]!.file}`);
      // the matched routes of the paths the app has: a few dozen lists
      byRoutes.set(key, files);
    }
    return files;
  };
}
