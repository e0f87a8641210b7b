import type { IncomingMessage } from 'node:http';
import { hashToken } from '../../core/token-hash';

/** The session id (SHA-256 of the cookie's token), as the app's context computes it. */
export function sessionIdOf(req: IncomingMessage): string {
  return hashToken(/(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '');
}
