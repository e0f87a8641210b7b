import type { RoomAuthoriser } from './authoriser';

/** `user:<id>`: one's own room only (signed-in sockets are put in it at the handshake anyway). */
export const authoriseUserRooms: RoomAuthoriser = async (_deps, userId, ids) => (userId ? ids.filter((id) => id === userId) : []);
