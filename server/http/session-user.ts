import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveSession, type SessionDeps } from '../auth/resolve-session';
import type { SessionUser } from '../../core/sessions/resolved-session';

/** one resolution per request: the write budget (write-budget.ts) and the route both ask */
const resolved = new WeakMap<IncomingMessage, Promise<SessionUser | null>>();

/**
 * The signed-in user of a plain HTTP request (uploads, the queue dashboard, metrics), resolved as
 * every request is (resolveSession): a dead cookie is cleared, a session near its end is renewed.
 */
export function sessionUserOf(deps: SessionDeps, req: IncomingMessage, res: ServerResponse): Promise<SessionUser | null> {
  let user = resolved.get(req);
  if (!user) {
    user = resolveSession(deps, req.headers.cookie, res).then((auth) => auth?.user ?? null);
    resolved.set(req, user);
    // a failed read is not remembered: the route's own call reports it
    user.catch(() => resolved.delete(req));
  }
  return user;
}
