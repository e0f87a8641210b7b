import { createHash } from 'node:crypto';

/**
 * SHA-256 (hex) of a secret token: the only form the database keeps of a session token (server)
 * or a mailed link's token (made by the worker, consumed by the server), so both sides hash alike.
 * node:crypto's, not a JavaScript one: every signed-in request hashes its cookie.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
