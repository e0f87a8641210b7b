import { isUuid } from '../../../common/ids';
import { LIMITS } from '../../../common/limits';
import { ROOM_KINDS, type RoomKind } from '../../../common/socket-events';
import type { RoomAuthoriser } from './authoriser';
import { authoriseConversationRooms } from './conversation';
import { authorisePostRooms } from './post';
import { authorisePresenceRooms } from './presence';
import { authoriseUserRooms } from './user';

/** One authoriser per kind of room: a new kind cannot be joined until it has one. */
export const ROOM_AUTHORISERS: Record<RoomKind, RoomAuthoriser> = {
  post: authorisePostRooms,
  user: authoriseUserRooms,
  conversation: authoriseConversationRooms,
  presence: authorisePresenceRooms,
};

const isRoomKind = (value: unknown): value is RoomKind => (ROOM_KINDS as readonly unknown[]).includes(value);

/**
 * A socket's `room:join` / `room:leave` request as sent by anyone: a known kind and its ids
 * (every room is named by a uuid: others are dropped like unknown ones, no duplicates, at most LIMITS.postRoomJoinMax); null when
 * it is not that shape.
 */
export function parseRoomRequest(value: unknown): { kind: RoomKind; ids: string[] } | null {
  if (typeof value !== 'object' || value === null) return null;
  const { kind, ids } = value as { kind?: unknown; ids?: unknown };
  if (!isRoomKind(kind) || !Array.isArray(ids)) return null;
  const strings = ids.filter((v): v is string => typeof v === 'string' && isUuid(v));
  return { kind, ids: [...new Set(strings)].slice(0, LIMITS.postRoomJoinMax) };
}
