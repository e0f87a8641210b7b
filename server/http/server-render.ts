import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppDeps } from '../../core/deps';
import type { FirstData, PageRoute } from './first-data';

/** What src/entry-server.tsx exports (the build's <dist>/.ssr/entry-server.js). */
interface RendererModule {
  renderPage(input: { url: string; origin: string; state: string; nonce: string }): Promise<string | null>;
}

export type ServerRender = (input: { url: string; route: PageRoute; first: FirstData | null; nonce: string }) => Promise<string | null>;

/** The pages rendered on the server: the public ones a visitor opens from a shared link. */
const RENDERED: ReadonlySet<PageRoute['kind']> = new Set(['home', 'profile', 'post']);

/**
 * Server rendering of the public pages for a visitor (issue 30: the largest paint comes from the
 * HTML, not after the scripts). The renderer is the build's own bundle of the SPA
 * (scripts/build-web.ts), imported once; it renders from the page's first data, so a page is
 * rendered only when that data came (in time, and found): otherwise, and for a signed-in viewer
 * and every other route, the SPA renders in the browser as before. SERVER_RENDER=false turns it off.
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
  return async ({ url, route, first, nonce }) => {
    if (!first || first.signedIn || first.notFound || !RENDERED.has(route.kind)) return null;
    try {
      return await renderer.renderPage({ url, origin: deps.config.appUrl, state: first.state, nonce });
    } catch (error) {
      // the page still works: the browser renders it
      deps.log.warn({ err: error, url }, 'server rendering of a page failed');
      return null;
    }
  };
}
