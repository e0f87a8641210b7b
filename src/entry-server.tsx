/**
 * Server rendering of the public pages (issue 30): built on its own (`vite build --ssr`, see
 * scripts/build-web.ts) into <dist>/.ssr/entry-server.js and imported by the server at start
 * (server/http/server-render.ts). It renders a page with TanStack Router's SSR support
 * (createRequestHandler, RouterServer; the client hydrates it with RouterClient, main.tsx) over
 * the query cache the server already filled for the page (server/http/first-data.ts): nothing is
 * fetched here, so what is rendered is exactly what the client hydrates from the same data.
 */
import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { RouterServer, createRequestHandler, transformHtmlStringWithRouter } from '@tanstack/react-router/ssr/server';
import { TRPCClientError } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { StrictMode, type ReactElement } from 'react';
import { prerender } from 'react-dom/static';
import superjson, { type SuperJSONResult } from 'superjson';
import { createQueryClient } from './lib/query-client';
import { trpc } from './lib/trpc';
import { createAppRouter } from './router';

export interface RenderInput {
  /** the page's path and query, e.g. `/ava?x=1` */
  url: string;
  origin: string;
  /** the first data's dehydrated query cache, serialised by superjson, as JSON text */
  state: string;
  /** the response's CSP nonce: the router's hydration scripts are inline */
  nonce: string;
}

/**
 * A query the first data did not bring is not asked for while rendering: the server has no
 * cookie-less way round its own HTTP, and a page rendered with a skeleton would only be replaced.
 * The route then renders its pending state and the render is refused (below).
 */
function offlineTrpcClient() {
  return trpc.createClient({
    links: [() => () => observable((observer) => observer.error(TRPCClientError.from(new Error('Not fetched while server rendering'))))],
  });
}

/** A Suspense boundary that was not complete when the shell was written: React's inline scripts would finish it. */
const SUSPENDED = '<!--$?-->';

/**
 * The page's markup with no boundary left for a script to finish: the page must show without
 * JavaScript, and inline scripts other than the router's are not allowed. A React.lazy piece
 * suspends the first time it is rendered in this process only (its module is then loaded), so
 * the render is tried again; a boundary still pending after that (something really waiting) is
 * left to the client.
 */
async function renderWhole(element: ReactElement): Promise<string | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // never outline a large finished boundary into a later chunk (React's default for progressive display)
    const { prelude } = await prerender(element, { progressiveChunkSize: Number.POSITIVE_INFINITY });
    const markup = await new Response(prelude).text();
    if (!markup.includes(SUSPENDED)) return markup;
  }
  return null;
}

/** The page's markup and the router's hydration scripts, or null when it must be left to the client. */
export async function renderPage({ url, origin, state, nonce }: RenderInput): Promise<string | null> {
  const queryClient = createQueryClient();
  hydrate(queryClient, superjson.deserialize(JSON.parse(state) as SuperJSONResult) as DehydratedState);
  const request = new Request(new URL(url, origin));
  const handler = createRequestHandler({
    request,
    createRouter: () => {
      const router = createAppRouter(queryClient, offlineTrpcClient());
      router.update({ ...router.options, ssr: { nonce } });
      return router;
    },
  });
  const response = await handler(async ({ router, responseHeaders }) => {
    const matches = router.stores.matches.get();
    // an error, a not-found or a redirect: the client renders it as it always did
    if (matches.some((match) => match.status !== 'success')) return new Response(null, { status: 204 });
    const markup = await renderWhole(
      <StrictMode>
        <RouterServer router={router} />
      </StrictMode>,
    );
    if (markup === null) return new Response(null, { status: 204 });
    const html = await transformHtmlStringWithRouter(router, markup);
    return new Response(html.replace(/^<!DOCTYPE html>/i, ''), { status: 200, headers: responseHeaders });
  });
  if (response.status !== 200) return null;
  const html = await response.text();
  queryClient.clear();
  return html;
}
