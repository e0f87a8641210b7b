/**
 * A page on the server (issue 30; issue 48 item 1): built on its own (`vite build --ssr`, see
 * scripts/build-web.ts) into <dist>/.ssr/entry-server.js and imported by the server
 * (server/http/server-render.ts). The page's own route loaders (src/routes) are what runs: a
 * request's router is given a tRPC client whose link answers in the server's process with the
 * request's own context (server/http/first-data.ts), so the session and the access rule are those
 * of /trpc. The server waits for every query the loaders started, dehydrates the query cache (the
 * page's first data, which the browser hydrates from: src/lib/first-data.ts) and, when the page
 * is rendered on the server, renders it with TanStack Router's SSR support (RouterServer; the
 * browser hydrates it with RouterClient, main.tsx) from that same cache.
 */
import { dehydrate, type QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, type AnyRoute } from '@tanstack/react-router';
import { RouterServer, attachRouterServerSsrUtils, transformHtmlStringWithRouter } from '@tanstack/react-router/ssr/server';
import { TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { StrictMode, type ReactElement } from 'react';
import { prerender } from 'react-dom/static';
import superjson from 'superjson';
import type { LoadedPage, OpenedPage, PageFound, PageRendererModule, PageRequest, ProcedureCall, ServerPage } from '../common/first-data';
import type { AppRouter } from '../server/trpc/router';
import { createQueryClient } from './lib/query-client';
import { errorCode, trpc } from './lib/trpc';
import type { routeTree } from './routeTree.gen';
import { createAppRouter } from './router';

/** The loaders' calls, answered in process; a page only reads, so a write is refused. */
function inProcessLink(call: ProcedureCall): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        if (op.type !== 'query') {
          observer.error(TRPCClientError.from(new Error(`A page does not ${op.type} (${op.path})`)));
          return;
        }
        call({ type: op.type, path: op.path, input: op.input }).then(
          (answer) => {
            if ('error' in answer) return observer.error(TRPCClientError.from(answer as Parameters<typeof TRPCClientError.from>[0]));
            observer.next({ result: { type: 'data', data: answer.result.data } });
            observer.complete();
          },
          (error: unknown) => observer.error(TRPCClientError.from(error as Error)),
        );
      });
}

/** Resolves once no query of the cache is fetching: the loaders' awaited and unawaited queries alike. */
function settled(queryClient: QueryClient): Promise<void> {
  if (queryClient.isFetching() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      if (queryClient.isFetching() > 0) return;
      unsubscribe();
      resolve();
    });
  });
}

/** A Suspense boundary that was not complete when the shell was written: React's inline scripts would finish it. */
const SUSPENDED = '<!--$?-->';

/**
 * The page's markup with no boundary left for a script to finish: the page must show without
 * JavaScript, and inline scripts other than the router's are not allowed. `prerender` waits for
 * every lazy piece and every suspended boundary; one still pending after it (something really
 * waiting) leaves the page to the browser.
 */
async function renderWhole(element: ReactElement): Promise<string | null> {
  // never outline a large finished boundary into a later chunk (React's default for progressive display)
  const { prelude } = await prerender(element, { progressiveChunkSize: Number.POSITIVE_INFINITY });
  const markup = await new Response(prelude).text();
  return markup.includes(SUSPENDED) ? null : markup;
}

const NOT_FOUND_CODES = new Set(['NOT_FOUND', 'BAD_REQUEST']);

/** The server's pages over a route tree: the app's, or (a test) the app's with a route added. */
export function createPageRenderer(tree?: typeof routeTree): PageRendererModule {
  return {
    openPage({ url, origin, nonce, call }: PageRequest): OpenedPage {
      const queryClient = createQueryClient();
      // an answer the server could not give now would not come in time for the page either
      queryClient.setDefaultOptions({ ...queryClient.getDefaultOptions(), queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
      let found: PageFound = {};
      let notFound = false;
      const serverPage: ServerPage = async (find) => {
        try {
          found = { ...found, ...(await find()) };
        } catch (error) {
          if (NOT_FOUND_CODES.has(errorCode(error) ?? '')) notFound = true;
          // any other failure: the page is left to the browser, which asks again
          else found = { ...found, render: undefined };
        }
      };
      const router = createAppRouter(queryClient, trpc.createClient({ links: [inProcessLink(call)] }), {
        history: createMemoryHistory({ initialEntries: [url] }),
        serverPage,
        tree,
      });
      // A route's loader runs here only when the route says `ssr: true` (TanStack Router's own
      // option): the pages the server fills in; any other page's data is the browser's to ask for.
      router.update({ ...router.options, origin, ssr: { nonce }, defaultSsr: false } as typeof router.options);
      attachRouterServerSsrUtils({ router, manifest: undefined });
      // the routes the server loads for this page, whose chunks its HTML preloads
      const routeIds = router
        .matchRoutes(router.latestLocation)
        .map((match) => match.routeId as string)
        .filter((id) => (router.routesById as unknown as Record<string, AnyRoute | undefined>)[id]?.options.ssr === true);

      const close = () => {
        router.serverSsr?.cleanup();
        queryClient.clear();
      };
      const render = async (): Promise<string | null> => {
        // an error, a not-found or a redirect: the browser renders it as it always did
        if (router._serverResult?.type === 'redirect' || router.stores.matches.get().some((match) => match.status !== 'success')) return null;
        await router.serverSsr?.dehydrate();
        const markup = await renderWhole(
          <StrictMode>
            <RouterServer router={router} />
          </StrictMode>,
        );
        if (markup === null) return null;
        const html = await transformHtmlStringWithRouter(router, markup);
        return html.replace(/^<!DOCTYPE html>/i, '');
      };
      const loaded = (async (): Promise<LoadedPage> => {
        await router.load();
        await settled(queryClient);
        const state = dehydrate(queryClient, { shouldDehydrateQuery: (query) => query.state.status === 'success' });
        return { state: JSON.stringify(superjson.serialize(state)), notFound, found: notFound ? {} : found, render, close };
      })();
      loaded.catch(close);
      return { routeIds, loaded };
    },
  };
}

export const { openPage } = createPageRenderer();
