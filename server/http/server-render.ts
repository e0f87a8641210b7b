import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageRendererModule } from '../../common/first-data';
import type { AppDeps } from '../../core/deps';
import { serverRenders } from '../../core/metrics';
import type { FirstData } from './first-data';

export type ServerRender = (input: { url: string; first: FirstData | null; nonce: string }) => Promise<string | null>;

/**
 * Whether a page is rendered on the server: only from its data, found, and for a viewer its
 * route renders it for (its loader's `render`: the public pages for visitors, the home feed for
 * everyone; src/routes).
 */
function rendersOnServer(first: FirstData | null): first is FirstData {
  if (!first || first.notFound || !first.render) return false;
  return first.viewerId === null || first.render === 'everyone';
}

/**
 * The build's page renderer (src/entry-server.tsx built into <dist>/.ssr/entry-server.js by
 * scripts/build-web.ts), imported once: it runs a page's route loaders for its first data, and
 * renders the page. Without it (a build without the renderer) pages carry no first data: the SPA
 * asks for its data and renders in the browser.
 */
export async function loadPageRenderer(distDir: string, deps: AppDeps): Promise<PageRendererModule | null> {
  const file = path.join(distDir, '.ssr/entry-server.js');
  if (!existsSync(file)) {
    deps.log.warn({ file }, 'no page renderer in the build (run npm run build): pages carry no first data and render in the browser');
    return null;
  }
  try {
    return (await import(pathToFileURL(file).href)) as PageRendererModule;
  } catch (error) {
    deps.log.error({ err: error, file }, 'the page renderer could not be loaded: pages carry no first data and render in the browser');
    return null;
  }
}

/**
 * Server rendering of the pages a visitor opens from a shared link and of a signed-in fan's home
 * feed (issue 30: the largest paint comes from the HTML, not after the scripts). A page is
 * rendered from its first data (the router its loaders ran in), so only when that data came (in
 * time, and found) and its route renders it for this viewer: otherwise the SPA renders in the
 * browser as before. SERVER_RENDER=false turns it off (the first data stays).
 */
export function serverRender(deps: AppDeps): ServerRender | null {
  if (!deps.config.SERVER_RENDER) return null;
  const cache = renderedMarkupCache((_url, _state, first?: FirstData) => first?.renderMarkup() ?? Promise.resolve(null));
  return async ({ url, first, nonce }) => {
    if (!rendersOnServer(first)) return null;
    try {
      const markup = await cache(url, first.viewerId, first.state, first);
      return markup?.replaceAll(NONCE_MARK, nonce) ?? null;
    } catch (error) {
      // the page still works: the browser renders it
      deps.log.warn({ err: error, url }, 'server rendering of a page failed');
      return null;
    }
  };
}

/** Rendered in place of the response's CSP nonce, which each response then puts in (it must differ every time). */
export const NONCE_MARK = 'csp-nonce-of-this-response';
/** How long a rendering serves the same page with the same data: a relative time ('5m') moves on slowly enough. */
export const RENDER_CACHE_MS = 30_000;
const RENDER_CACHE_ENTRIES = 500;
/** When React Query fetched and dehydrated the data: not the data, so not part of what a rendering is kept for. */
const MOMENTS = /"(dataUpdatedAt|errorUpdatedAt|dehydratedAt)":\d+,?/g;

/**
 * The markup of a page for its data, kept a short while: a render costs tens to hundreds of
 * milliseconds of CPU, and a shared link is opened by many visitors with the same data (the
 * first data comes from the anonymous answers' cache). The key is the URL and the data itself, so
 * a change to the data renders anew at once; visitors asking at the same moment share one render.
 *
 * A signed-in viewer's page is theirs alone (their avatar and name in the shell, their likes,
 * what they may unlock): its key also holds the viewer's id, so it is only ever served to the
 * same viewer again (a reload). The data alone would already tell viewers apart (it holds the
 * session's `auth.me`), but not if that one answer failed and was left out; the id never is. A
 * visitor's key has no id: all visitors get the same data and so share the markup.
 */
export function renderedMarkupCache<Page>(render: (url: string, state: string, page?: Page) => Promise<string | null>, now: () => number = Date.now) {
  const entries = new Map<string, { at: number; markup: Promise<string | null> }>();
  return (url: string, viewerId: string | null, state: string, page?: Page): Promise<string | null> => {
    const key = `${url}\n${viewerId ?? ''}\n${createHash('sha256').update(state.replace(MOMENTS, '')).digest('base64url')}`;
    const kept = entries.get(key);
    if (kept && now() - kept.at < RENDER_CACHE_MS) {
      serverRenders.inc({ outcome: 'cached' });
      return kept.markup;
    }
    serverRenders.inc({ outcome: 'rendered' });
    const markup = render(url, state, page);
    entries.delete(key);
    entries.set(key, { at: now(), markup });
    // a failed render is not kept
    markup.catch(() => entries.delete(key));
    // the oldest first (a Map keeps insertion order)
    while (entries.size > RENDER_CACHE_ENTRIES) entries.delete(entries.keys().next().value!);
    return markup;
  };
}
