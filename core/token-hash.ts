import { sha256 } from '@oslojs/crypto/sha2';
import { encodeHexLowerCase } from '@oslojs/encoding';

/**
 * SHA-256 (hex) of a secret token: the only form the database keeps of a session token (server)
 * or a mailed link's token (made by the worker, consumed by the server), so both sides hash alike.
 */
export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}
