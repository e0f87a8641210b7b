import { callTRPCProcedure, getTRPCErrorFromUnknown, getTRPCErrorShape, transformTRPCResponse, TRPCError, type AnyTRPCRouter } from '@trpc/server';
import { getHTTPStatusCode } from '@trpc/server/http';
import type { TRPCResponse } from '@trpc/server/rpc';
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';

/** The app's tRPC handler's options (express-handler.ts): its hooks, as both paths call them. */
export interface TrpcHandlerOptions<TRouter extends AnyTRPCRouter> {
  router: TRouter;
  maxBatchSize: number;
  createContext: (opts: { req: ExpressRequest; res: ExpressResponse }) => Promise<TRouter['_def']['_config']['$types']['ctx']>;
  responseMeta: (opts: { ctx?: TRouter['_def']['_config']['$types']['ctx']; errors: TRPCError[] }) => { headers?: Headers; status?: number };
  onError: (opts: { error: TRPCError; path: string | undefined; input: unknown; ctx: unknown; type: string; req: ExpressRequest }) => void;
}

/**
 * Queries over GET (the SPA's batches, single calls, the server-rendered pages' reads) answered
 * with tRPC's own public pieces: the procedure called by `callTRPCProcedure`, an error shaped by
 * the router's formatter (`getTRPCErrorShape`), the answer by its transformer
 * (`transformTRPCResponse`), the status by `getHTTPStatusCode` (207 for a mixed batch), the headers
 * by the responseMeta. It is what resolveResponse does for this case, without what that costs on
 * every call: a URL and a Fetch Response, the input's memo, an AbortSignal.any per call. Its
 * queries get no abort signal: none reads one, and on Node 20 an AbortSignal per request cost
 * more than the rest of an empty query's allocations and was kept by minor collections
 * (docs/performance.md, "Spread objects outlive their request"); a query that must stop when
 * its client leaves would have to bring it back.
 * Measured as 14% of a feed page's CPU and 7% of a thread's (docs/performance.md).
 *
 * Anything else is declined (false) before a context is made or a procedure runs, and goes to
 * resolveResponse, whose answers stay tRPC's own: a path that is not a query of the router (a
 * mutation over GET, an unknown or lazily loaded path, a path that is not valid percent-encoding),
 * a streamed answer asked for (trpc-accept, or an Accept of JSON lines),
 * a batch over maxBatchSize, an input that is not JSON or a batch input that is not an object.
 */
export async function answerGetQueries<TRouter extends AnyTRPCRouter>(
  opts: TrpcHandlerOptions<TRouter>,
  req: ExpressRequest,
  res: ExpressResponse,
  encodedPath: string,
): Promise<boolean> {
  if (asksForStream(req)) return false;
  const path = decoded(encodedPath);
  if (path === null) return false;
  const q = req.url.indexOf('?');
  const search = new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1));
  const isBatch = search.get('batch') === '1';
  const paths = isBatch ? path.split(',') : [path];
  if (paths.length > opts.maxBatchSize) return false;
  if (!paths.every((p) => (opts.router._def.procedures as Record<string, { _def?: { type?: string } } | undefined>)[p]?._def?.type === 'query')) return false;
  const inputs = readInputs(search.get('input'), isBatch);
  if (!inputs) return false;

  const config = opts.router._def._config;
  let ctx: TRouter['_def']['_config']['$types']['ctx'] | undefined;
  let contextError: unknown = null;
  try {
    ctx = await opts.createContext({ req, res });
  } catch (cause) {
    contextError = cause;
  }
  const errors: (TRPCError | undefined)[] = [];
  const answers: TRPCResponse[] = await Promise.all(
    paths.map(async (callPath, index) => {
      const raw = isBatch ? inputs[index] : inputs[0];
      // read as tRPC reads it: when the procedure asks (after the middlewares before .input()),
      // and what was read is the input its onError and error shape are given
      let input: unknown;
      const getRawInput = async () => (input = raw === undefined ? undefined : config.transformer.input.deserialize(raw));
      try {
        if (contextError) throw contextError;
        const data: unknown = await callTRPCProcedure({ router: opts.router, path: callPath, getRawInput, ctx, type: 'query', signal: undefined, batchIndex: index });
        return { result: { data } };
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        errors[index] = error;
        opts.onError({ error, path: callPath, input, ctx, type: 'query', req });
        return { error: getTRPCErrorShape({ config, ctx, error, input, path: callPath, type: 'query' }) };
      }
    }),
  );

  const untransformed = isBatch ? answers : answers[0]!;
  const meta = opts.responseMeta({ ctx, errors: errors.filter((e) => e !== undefined) });
  // a status a procedure set itself stands, as in the resolveResponse path
  if (res.statusCode === 200) res.statusCode = meta.status ?? getHTTPStatusCode(untransformed);
  // the headers as tRPC's resolveResponse makes them: its Vary, then the responseMeta's appended
  // (into the responseMeta's own Headers, made for this call: no second one on every read)
  const headers = meta.headers ?? new Headers();
  const metaVary = headers.get('vary');
  headers.set('vary', metaVary === null ? 'trpc-accept, accept' : `trpc-accept, accept, ${metaVary}`);
  headers.append('content-type', 'application/json');
  setTrpcHeaders(res, headers);
  res.end(JSON.stringify(transformTRPCResponse(config, untransformed)));
  return true;
}

/**
 * An answer's headers onto the response, from either path. compression (app.ts) runs only for a
 * client that asks for it, and adds Accept-Encoding to Vary itself; every answer says it, so a
 * shared cache keys its copies on it. Cookies are set as a list, none lost to the next.
 */
export function setTrpcHeaders(res: ExpressResponse, headers: Headers): void {
  for (const [key, value] of headers) {
    if (key === 'vary') res.setHeader(key, `${value}, Accept-Encoding`);
    else if (key !== 'set-cookie') res.setHeader(key, value);
  }
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
}

/** tRPC's test for a streamed answer (its getAcceptHeader): trpc-accept said, or JSON lines accepted. */
function asksForStream(req: ExpressRequest): boolean {
  return req.headers['trpc-accept'] !== undefined || (req.headers.accept ?? '').split(',').some((t) => t.trim() === 'application/jsonl');
}

function decoded(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** The calls' raw inputs by index, or null when tRPC's own answer is needed (not JSON, a batch's not an object). */
function readInputs(raw: string | null, isBatch: boolean): Record<number, unknown> | null {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isBatch) return { 0: parsed };
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<number, unknown>) : null;
}
