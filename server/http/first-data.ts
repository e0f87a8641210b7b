import type { Request, Response } from 'express';
import { getTRPCErrorFromUnknown, getTRPCErrorShape } from '@trpc/server';
import type { OpenedPage, PageFound, PagePreview, PageRendererModule, ProcedureCall } from '../../common/first-data';
import type { ImageSources } from '../../common/image-sources';
import type { AppDeps } from '../../core/deps';
import { createCallerFactory, createContext, type Context } from '../trpc/init';
import { appRouter } from '../trpc/router';

/**
 * A page's first data, put into the HTML the server sends (issue 30 item 2; issue 48 item 1): the
 * answers of the queries the page's own route loaders start (src/routes), run on the server by
 * the page renderer (src/entry-server.tsx) through a tRPC client whose calls are answered here,
 * in process, by the same procedures with the caller's own context (cookie, session, access
 * rule: a visitor gets a premium post as its blurred preview, a signed-in viewer their own view).
 * The query cache is dehydrated for React Query and serialised with superjson, the link's
 * transformer; the SPA hydrates from it before the first render (src/lib/first-data.ts), so the
 * first paint needs no second round trip. No route is named here: a new page's first data is
 * its route file's loader.
 *
 * Only successful answers travel: a page whose loader found its entity missing (an unknown,
 * private or hidden profile, a draft or unknown post) leaves its query for the client to ask,
 * which shows the page's 'not found' exactly as before, and the HTML is sent with 404.
 */
export interface FirstData {
  /** React Query's dehydrated state, serialised by superjson ({ json, meta }), as JSON text */
  state: string;
  /** the page's entity was not found (or may not be seen): 404 */
  notFound: boolean;
  /** what a link preview may show: set only when the visitor is anonymous (or it names nothing of anyone) */
  preview: PagePreview | null;
  /** who the page is rendered for on the server (its route's loader says) */
  render: PageFound['render'];
  /** the signed-in viewer's id (null for a visitor): whose page this is, for what is kept of it (server-render.ts) */
  viewerId: string | null;
  /** the picture likely to be the page's largest paint, preloaded from the head */
  leadImage: ImageSources | null;
  /** the page's markup (server-render.ts decides whether it is wanted) */
  renderMarkup: () => Promise<string | null>;
}

const createCaller = createCallerFactory(appRouter);

/** The request's procedures, called in process: tRPC's own caller, its error shaped by the app's formatter as /trpc shapes it. */
function procedureCall(ctx: Context): ProcedureCall {
  const caller = createCaller(ctx) as unknown as Record<string, unknown>;
  return async ({ type, path, input }) => {
    try {
      const procedure = path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], caller) as (input: unknown) => Promise<unknown>;
      return { result: { data: await procedure(input) } };
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      return { error: getTRPCErrorShape({ config: appRouter._def._config, error, type, path, input, ctx }) };
    }
  };
}

/** A page opened for a request: its route's loaders run at once with the request's context. */
export interface OpenedFirstData {
  routeIds: string[];
  first: Promise<FirstData>;
  /** frees the page's router and cache once its data and markup are no longer needed */
  close: () => void;
}

export async function openFirstData(pages: PageRendererModule, deps: AppDeps, req: Request, res: Response, nonce: string): Promise<OpenedFirstData> {
  const ctx = await createContext(deps, { req, res });
  const viewerId = ctx.user?.id ?? null;
  const opened: OpenedPage = pages.openPage({ url: req.originalUrl, origin: deps.config.appUrl, nonce, call: procedureCall(ctx) });
  let closed = false;
  const close = () => {
    closed = true;
    void opened.loaded.then((page) => page.close(), () => undefined);
  };
  const first = opened.loaded.then((page): FirstData => {
    const preview = page.found.preview ?? null;
    return {
      state: page.state,
      notFound: page.notFound,
      // a link preview describes what everyone may see, never what this viewer may
      preview: viewerId !== null && preview?.kind !== 'site' ? null : preview,
      render: page.found.render,
      viewerId,
      leadImage: page.found.leadImage ?? null,
      renderMarkup: () => (closed ? Promise.resolve(null) : page.render()),
    };
  });
  // a page whose data comes after the response was sent is only freed
  first.catch(() => undefined);
  return { routeIds: opened.routeIds, first, close };
}
