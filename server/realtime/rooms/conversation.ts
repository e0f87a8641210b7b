import type { RoomAuthoriser } from './authoriser';

/**
 * `conversation:<id>`: not used. Direct messages travel through the two participants' own rooms
 * (`user:<id>`, joined at the handshake), which needs no join and no second authorisation; the
 * kind stays refused so nobody can invent one.
 */
export const authoriseConversationRooms: RoomAuthoriser = async () => [];
