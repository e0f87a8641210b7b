import { ROOM_KINDS, roomName, userRoom, type RoomKind, type RoomReauthorisation } from '../../common/socket-events';
import { readId } from '../../common/ids';
import type { AppDeps } from '../../core/deps';
import type { IoServer } from './socket-server';
import { ROOM_AUTHORISERS } from './rooms/room-requests';

/**
 * A join is authorised once; permissions change afterwards (a creator goes private, a block, a
 * subscription ends). Each server copy hears `rooms:reauthorise` (from any copy or the worker,
 * through the Redis adapter) and runs the room kind's authoriser again for ITS OWN sockets
 * concerned, grouped by user (one call per user), taking each socket out of the rooms no longer
 * allowed and telling it so (`rooms:revoked`). Sessions that end are disconnected instead
 * (Realtime.disconnectSessions).
 */
export async function reauthoriseLocalSockets(io: IoServer, deps: Pick<AppDeps, 'db'>, request: RoomReauthorisation): Promise<void> {
  const { kind } = request;
  const rooms = io.of('/').adapter.rooms;
  const prefix = `${kind}:`;

  // the rooms of this kind in question on this copy (null: every room of the kind the sockets are in)
  let scope: Set<string> | null = null;
  if (request.ids) scope = new Set(request.ids.map((id) => roomName(kind, id)));
  else if (request.creatorId) scope = await creatorPostRooms(deps, rooms, request.creatorId);

  const socketIds = new Set<string>();
  if (request.userIds) {
    for (const userId of request.userIds) for (const id of rooms.get(userRoom(userId)) ?? []) socketIds.add(id);
  } else if (scope) {
    for (const room of scope) for (const id of rooms.get(room) ?? []) socketIds.add(id);
  }

  // per user: the sockets and the ids of the rooms they are in
  const byUser = new Map<string | null, { sockets: { id: string; ids: string[] }[]; ids: Set<string> }>();
  for (const socketId of socketIds) {
    const socket = io.of('/').sockets.get(socketId);
    if (!socket) continue;
    const ids = [...socket.rooms].filter((r) => r.startsWith(prefix) && (!scope || scope.has(r))).map((r) => r.slice(prefix.length));
    if (ids.length === 0) continue;
    const entry = byUser.get(socket.data.userId) ?? { sockets: [], ids: new Set() };
    entry.sockets.push({ id: socketId, ids });
    for (const id of ids) entry.ids.add(id);
    byUser.set(socket.data.userId, entry);
  }

  for (const [userId, { sockets, ids }] of byUser) {
    const allowed = new Set(await ROOM_AUTHORISERS[kind](deps, userId, [...ids]));
    for (const { id, ids: joined } of sockets) {
      const revoked = joined.filter((roomId) => !allowed.has(roomId));
      const socket = io.of('/').sockets.get(id);
      if (!socket || revoked.length === 0) continue;
      for (const roomId of revoked) void socket.leave(roomName(kind, roomId));
      socket.emit('rooms:revoked', { kind, ids: revoked });
    }
  }
}

/** The post rooms open on this copy whose post is `creatorId`'s (one query over those ids). */
async function creatorPostRooms(deps: Pick<AppDeps, 'db'>, rooms: Map<string, Set<string>>, creatorId: string): Promise<Set<string>> {
  // post rooms are joined by uuid only (room-requests.ts) and the creator's id was parsed below
  const postIds = [...rooms.keys()].filter((r) => r.startsWith('post:')).map((r) => r.slice('post:'.length));
  if (postIds.length === 0) return new Set();
  const owned = await deps.db.selectFrom('posts').select('id').where('creator_id', '=', creatorId).where('id', 'in', postIds).execute();
  return new Set(owned.map((p) => roomName('post', p.id)));
}

/** A request as it arrives over Redis: checked before use (only servers and the worker publish there). */
export function parseReauthorisation(value: unknown): RoomReauthorisation | null {
  if (typeof value !== 'object' || value === null) return null;
  const { kind, userIds, ids, creatorId } = value as Record<string, unknown>;
  if (!(ROOM_KINDS as readonly unknown[]).includes(kind)) return null;
  const strings = (v: unknown) => (Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : undefined);
  return {
    kind: kind as RoomKind,
    userIds: strings(userIds),
    ids: strings(ids),
    creatorId: readId(creatorId) ?? undefined,
  };
}
