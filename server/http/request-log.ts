import type { RequestHandler } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/**
 * One short line per request, as pino-http wrote it (`req: { id, method, url }`, `res: { statusCode }`,
 * `responseTime` in ms; 'request completed', 'request aborted' when the client left before its
 * answer, 'request errored' with an `err` at 500 and above): warn for 4xx, error for 5xx, info
 * otherwise. Headers, cookies included, stay out of the logs, and so do the URL's tokens.
 *
 * Written here rather than by pino-http, which builds two child loggers a request (their
 * bindings serialised and redacted whether or not a line is ever written) and keeps the request
 * on the response: a tenth of the CPU of a signed-in list (docs/performance.md).
 */
export function requestLog(log: Logger, ignore: (url: string) => boolean): RequestHandler {
  const maxId = 2_147_483_647;
  let nextId = 0;
  return (req, res, next) => {
    if (ignore(req.url)) return next();
    nextId = (nextId + 1) % maxId;
    const id = nextId;
    // as it arrived (a mounted router rewrites req.url while it handles the request), its secrets out
    const url = withoutSecrets(req.url);
    const started = Date.now();
    const done = () => {
      res.off('close', done);
      res.off('finish', done);
      writeLine(log, req, res, { id, method: req.method, url }, Date.now() - started);
    };
    res.on('close', done);
    res.on('finish', done);
    next();
  };
}

/**
 * The one-time tokens of the mailed links (/auth/confirm?token=…, /auth/reset-password?token=…)
 * open a page with a GET: a log line must not hold what signs someone in or resets a password.
 */
const SECRET_PARAM = /([?&](?:token|code|key|signature)=)[^&#]*/gi;
export const withoutSecrets = (url: string) => url.replace(SECRET_PARAM, '$1[redacted]');

function writeLine(log: Logger, req: IncomingMessage, res: ServerResponse, request: { id: number; method: string; url: string }, responseTime: number) {
  const line = { req: request, res: { statusCode: res.statusCode }, responseTime };
  if (res.statusCode >= 500) {
    log.error({ err: new Error(`failed with status code ${res.statusCode}`), ...line }, 'request errored');
    return;
  }
  const message = !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted';
  if (res.statusCode >= 400) log.warn(line, message);
  else log.info(line, message);
}
