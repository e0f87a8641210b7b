import type { Express } from 'express';
import { IncomingMessage, ServerResponse } from 'node:http';

type MessageClasses = { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse };

/**
 * The HTTP server's request and response classes, whose objects are made with the Express app's
 * own prototypes (`app.request`, `app.response`) from the start.
 *
 * Express gives every request and response those prototypes in `app.handle`, with
 * `Object.setPrototypeOf`; on an object made with them already, that call changes nothing. Made
 * by node's plain classes and changed afterwards, every request's objects outlived the young
 * generation's collections (docs/performance.md, "Express's prototypes").
 *
 * node writes both constructors as plain functions, called here on the new object: the objects
 * come from `new` on a function whose prototype is the Express one. Made with `Reflect.construct`
 * and this function as the new target instead, they fared worse than with no change at all
 * (measured in the same place). Were a later node to write the constructors as classes, the
 * server keeps node's classes rather than fail.
 */
export function expressMessageClasses(app: Express): MessageClasses | Record<string, never> {
  if (isClass(IncomingMessage) || isClass(ServerResponse)) return {};
  function AppRequest(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    Reflect.apply(IncomingMessage, this, args);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    Reflect.apply(ServerResponse, this, args);
  }
  AppResponse.prototype = app.response;
  return { IncomingMessage: AppRequest as unknown as typeof IncomingMessage, ServerResponse: AppResponse as unknown as typeof ServerResponse };
}

const isClass = (f: unknown) => typeof f === 'function' && /^class\b/.test(Function.prototype.toString.call(f));
