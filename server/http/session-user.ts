import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveSession } from '../auth/resolve-session';
import type { SessionUser } from '../auth/session';
import type { AppDeps } from '../../core/deps';

/**
 * The signed-in user of a plain HTTP request (uploads, the queue dashboard, metrics), resolved as
 * every request is (resolveSession): a dead cookie is cleared, a session near its end is renewed.
 */
export async function sessionUserOf(deps: Pick<AppDeps, 'db' | 'config'>, req: IncomingMessage, res: ServerResponse): Promise<SessionUser | null> {
  return (await resolveSession(deps, req.headers.cookie, res))?.user ?? null;
}
