import { loadPartner } from '../../../domain/access/messaging';
import type { RoomAuthoriser } from './authoriser';

/** The most presence rooms one request may ask for: a client watches the partners of its open threads. */
const MAX_PRESENCE_IDS = 5;

/**
 * `presence:<userId>`: a user's online state, for sockets of users who may message them now
 * (domain/access/messaging.ts: profile visible, no block either way) and only when that user
 * shows their online status (privacy_settings.show_online_status). One query per id, at most 5.
 */
export const authorisePresenceRooms: RoomAuthoriser = async (deps, userId, ids) => {
  if (!userId) return [];
  const allowed: string[] = [];
  for (const id of ids.slice(0, MAX_PRESENCE_IDS)) {
    const partner = await loadPartner(deps.db, userId, { id });
    if (partner?.messaging === 'available' && partner.showOnlineStatus) allowed.push(id);
  }
  return allowed;
};
