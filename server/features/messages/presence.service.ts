import type { UsernameInput } from '../../../common/message-schemas';
import { TYPING_TTL_MS } from '../../../common/messages';
import { loadPartner, type LoadedPartner } from '../../../domain/access/messaging';
import { showsOnlineStatus } from '../../../domain/access/messaging.queries';
import { noteTyping, onlineUsers } from '../../../domain/presence/presence';
import type { MessagesDeps } from './messages.service';

/**
 * What a chat shows of the partner's presence: the online dot and 'typing'. The facts live in
 * Redis (domain/presence/presence.ts); who may see them is the messaging rule and each user's
 * show_online_status. Redis being away hides the dot rather than failing the page.
 */

/** Whether the partner is online now; null when the caller may not know (hidden status, no messaging, Redis away). */
export async function partnerOnline(deps: Pick<MessagesDeps, 'redis' | 'config' | 'log'>, partner: LoadedPartner): Promise<boolean | null> {
  if (!partner.showOnlineStatus || partner.messaging !== 'available') return null;
  try {
    return (await onlineUsers(deps.redis, deps.config.REDIS_PREFIX, [partner.profile.id])).has(partner.profile.id);
  } catch (error) {
    deps.log.warn({ err: error }, 'presence: Redis unavailable');
    return null;
  }
}

/**
 * 'typing' to the partner, when the caller may message them and shows their own online status
 * (whoever hides it is never seen typing either). Kept in Redis for TYPING_TTL_MS.
 */
export async function typing(deps: MessagesDeps, userId: string, input: UsernameInput): Promise<{ ok: true }> {
  const found = await loadPartner(deps.db, userId, { username: input.username });
  if (!found || found.messaging !== 'available') return { ok: true };
  if (!(await showsOnlineStatus(deps.db, userId))) return { ok: true };
  await noteTyping(deps.redis, deps.config.REDIS_PREFIX, userId, found.profile.id).catch(() => {});
  deps.realtime.toUser(found.profile.id, 'typing', { userId, expiresInMs: TYPING_TTL_MS });
  return { ok: true };
}
