import type { AnyTRPCRouter } from '@trpc/server';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { createURL, incomingMessageToRequest, internal_exceptionHandler } from '@trpc/server/adapters/node-http';
import { resolveResponse } from '@trpc/server/http';
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { answerGetQueries, setTrpcHeaders, type TrpcHandlerOptions } from './get-queries';

/**
 * tRPC's Express adapter, with its answers written the short way. A query over GET (every read
 * the SPA and the pages make) is answered by get-queries.ts from tRPC's public pieces; anything
 * else is resolved by tRPC itself (`resolveResponse`: batching, inputs, context, errors, status
 * codes and responseMeta are tRPC's own), as `createExpressMiddleware` does, and what differs
 * is what is around it, measured as a fifth of the app's CPU on a signed-in list
 * (docs/performance.md):
 * - a JSON answer (every query and mutation: the client's httpBatchLink never streams) is read
 *   whole and written with one `res.end`, where the adapter pipes it through a web
 *   WritableStream chunk by chunk; streamed answers (SSE, JSON lines) are written as they come;
 * - a GET has no body, so no Fetch Request is built for it (bodilessRequest), and its abort
 *   signal fires only when the client goes away before its answer: the adapter aborts every
 *   request once its response has closed, which builds a DOMException and runs the abort
 *   listeners of a request that is already answered.
 * Requests with a body still go through tRPC's own `incomingMessageToRequest`.
 */
export function trpcExpressHandler<TRouter extends AnyTRPCRouter>(opts: TrpcHandlerOptions<TRouter>): RequestHandler {
  return (req, res) => {
    const path = req.path.slice(req.path.lastIndexOf('/') + 1);
    // the exception handler's options are made only when there is a failure to handle
    answer(opts, req, res, path).catch((cause: unknown) => internal_exceptionHandler({ req, res, path, ...opts })(cause));
  };
}

/**
 * tRPC's own Express adapter with the same hooks: what FRAMEWORK_SHORTCUTS=false serves
 * (docs/operations.md, "Framework shortcuts, and upgrading what they rely on"). Every answer says it varies with Accept-Encoding,
 * as the short path's do.
 */
export function trpcAdapterHandler<TRouter extends AnyTRPCRouter>(opts: TrpcHandlerOptions<TRouter>): RequestHandler {
  return createExpressMiddleware({
    router: opts.router,
    maxBatchSize: opts.maxBatchSize,
    createContext: opts.createContext,
    responseMeta: ({ ctx, errors }) => {
      const meta = opts.responseMeta({ ctx, errors });
      const vary = meta.headers?.get('vary');
      if (vary) meta.headers?.set('vary', `${vary}, Accept-Encoding`);
      return meta;
    },
    onError: (o) => opts.onError({ ...o, req: o.req as unknown as ExpressRequest }),
  } as Parameters<typeof createExpressMiddleware<TRouter>>[0]);
}

async function answer<TRouter extends AnyTRPCRouter>(opts: TrpcHandlerOptions<TRouter>, req: ExpressRequest, res: ExpressResponse, path: string) {
  if (req.method === 'GET' && (await answerGetQueries(opts, req, res, path))) return;
  const request = req.method === 'GET' ? bodilessRequest(req, res) : incomingMessageToRequest(req, res, { maxBodySize: null });
  const response = await resolveResponse({
    router: opts.router,
    req: request,
    path,
    error: null,
    maxBatchSize: opts.maxBatchSize,
    responseMeta: ({ ctx, errors }) => opts.responseMeta({ ctx, errors }),
    createContext: () => opts.createContext({ req, res }),
    onError: (o) => opts.onError({ ...o, req }),
  });
  if (res.statusCode === 200) res.statusCode = response.status;
  setTrpcHeaders(res, response.headers);
  if (!response.body) {
    res.end();
    return;
  }
  if (response.headers.get('content-type') === 'application/json') {
    res.end(await response.text());
    return;
  }
  await writeStream(response.body, res, request.signal);
}

/**
 * A GET as tRPC 11.19's resolveResponse reads it (method, url, headers.get/has, signal; no body):
 * what a Fetch Request would give, without building one (undici's Request copies every header
 * into a Headers and follows the signal with one of its own). tRPC is pinned; every GET the
 * integration tests make goes through here, so a tRPC that read more of it would fail them.
 */
function bodilessRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const get = (name: string) => headerValue(req.headers, name.toLowerCase());
  const request = {
    method: req.method,
    url: createURL(req).href,
    headers: { get, has: (name: string) => get(name) !== null },
    signal: abortOnLeave(res),
  };
  return request as unknown as Request;
}

function headerValue(incoming: IncomingHttpHeaders, name: string): string | null {
  const value = incoming[name];
  if (value == null) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A streamed answer, chunk by chunk, waiting for the socket to drain (gzip flushed after each). */
async function writeStream(body: ReadableStream<Uint8Array>, res: ExpressResponse, signal: AbortSignal) {
  const reader = body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
      (res as ExpressResponse & { flush?: () => void }).flush?.();
    }
  } catch (error) {
    if (!signal.aborted) {
      if (!res.headersSent) res.statusCode = 500;
      throw error;
    }
  } finally {
    signal.removeEventListener('abort', stop);
    res.end();
  }
}

/** A signal that fires only when the client leaves before its answer (this file's head says why). */
function abortOnLeave(res: ExpressResponse): AbortSignal {
  const ac = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  return ac.signal;
}
