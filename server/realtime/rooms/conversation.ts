import type { RoomAuthoriser } from './authoriser';

/**
 * `conversation:<id>`: refused until direct messages exist; then the conversation's two members
 * (domain/access) are let in.
 */
export const authoriseConversationRooms: RoomAuthoriser = async () => [];
