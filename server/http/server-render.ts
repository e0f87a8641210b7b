import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppDeps } from '../../core/deps';
import { serverRenders } from '../../core/metrics';
import type { FirstData, PageRoute } from './first-data';

/** What src/entry-server.tsx exports (the build's <dist>/.ssr/entry-server.js). */
interface RendererModule {
  renderPage(input: { url: string; origin: string; state: string; nonce: string }): Promise<string | null>;
}

export type ServerRender = (input: { url: string; route: PageRoute; first: FirstData | null; nonce: string }) => Promise<string | null>;

/** The pages rendered on the server for a visitor: the public ones opened from a shared link. */
const RENDERED: ReadonlySet<PageRoute['kind']> = new Set(['home', 'profile', 'post']);
/**
 * And for a signed-in viewer: the home feed, the page a fan opens most (issue 30: its largest
 * paint, the first post's picture, comes from the HTML). Its first data carries everything its
 * first screen shows (the session, the featured strip, the feed's first page, the shell's two
 * unread counts: server/http/first-data.ts).
 */
const RENDERED_SIGNED_IN: ReadonlySet<PageRoute['kind']> = new Set(['home']);

/** Whether a page is rendered on the server: only from its data, found, and for a viewer it is rendered for. */
function rendersOnServer(route: PageRoute, first: FirstData | null): first is FirstData {
  if (!first || first.notFound) return false;
  return (first.viewerId !== null ? RENDERED_SIGNED_IN : RENDERED).has(route.kind);
}

/**
 * Server rendering of the pages a visitor opens from a shared link and of a signed-in fan's home
 * feed (issue 30: the largest paint comes from the HTML, not after the scripts). The renderer is
 * the build's own bundle of the SPA (scripts/build-web.ts), imported once; it renders from the
 * page's first data, so a page is rendered only when that data came (in time, and found):
 * otherwise, and for every other route, the SPA renders in the browser as before.
 * SERVER_RENDER=false turns it off.
 */
export async function loadServerRender(distDir: string, deps: AppDeps): Promise<ServerRender | null> {
  const file = path.join(distDir, '.ssr/entry-server.js');
  if (!deps.config.SERVER_RENDER) return null;
  if (!existsSync(file)) {
    deps.log.warn({ file }, 'no server renderer in the build (run npm run build): pages are rendered in the browser');
    return null;
  }
  let renderer: RendererModule;
  try {
    renderer = (await import(pathToFileURL(file).href)) as RendererModule;
  } catch (error) {
    deps.log.error({ err: error, file }, 'the server renderer could not be loaded: pages are rendered in the browser');
    return null;
  }
  const cache = renderedMarkupCache((url, state) => renderer.renderPage({ url, origin: deps.config.appUrl, state, nonce: NONCE_MARK }));
  return async ({ url, route, first, nonce }) => {
    if (!rendersOnServer(route, first)) return null;
    try {
      const markup = await cache(url, first.viewerId, first.state);
      return markup?.replaceAll(NONCE_MARK, nonce) ?? null;
    } catch (error) {
      // the page still works: the browser renders it
      deps.log.warn({ err: error, url }, 'server rendering of a page failed');
      return null;
    }
  };
}

/** Rendered in place of the response's CSP nonce, which each response then puts in (it must differ every time). */
const NONCE_MARK = 'csp-nonce-of-this-response';
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
export function renderedMarkupCache(render: (url: string, state: string) => Promise<string | null>, now: () => number = Date.now) {
  const entries = new Map<string, { at: number; markup: Promise<string | null> }>();
  return (url: string, viewerId: string | null, state: string): Promise<string | null> => {
    const key = `${url}\n${viewerId ?? ''}\n${createHash('sha256').update(state.replace(MOMENTS, '')).digest('base64url')}`;
    const kept = entries.get(key);
    if (kept && now() - kept.at < RENDER_CACHE_MS) {
      serverRenders.inc({ outcome: 'cached' });
      return kept.markup;
    }
    serverRenders.inc({ outcome: 'rendered' });
    const markup = render(url, state);
    entries.delete(key);
    entries.set(key, { at: now(), markup });
    // a failed render is not kept
    markup.catch(() => entries.delete(key));
    // the oldest first (a Map keeps insertion order)
    while (entries.size > RENDER_CACHE_ENTRIES) entries.delete(entries.keys().next().value!);
    return markup;
  };
}
