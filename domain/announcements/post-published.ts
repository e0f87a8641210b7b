import { FEED_ROOM, userRoom } from '../../common/socket-events';
import type { Realtime } from '../../core/realtime/realtime';

/**
 * `post:published` in its two shapes. The creator's own sockets (room `user:<creatorId>`) get the
 * upload's `optimisticId`, which replaces their 'Publishing' card; open feeds, when the caller has
 * decided they may hear of the post (`toFeed`), get the event without it, the creator's sockets
 * left out so they hear of it once. The feed's copy goes first: once the creator's arrives, the
 * feed's has been sent.
 */
export function emitPostPublished(
  realtime: Pick<Realtime, 'toRooms' | 'toUser'>,
  { postId, creatorId, optimisticId }: { postId: string; creatorId: string; optimisticId: string | null },
  { toFeed }: { toFeed: boolean },
): void {
  if (toFeed) realtime.toRooms(FEED_ROOM, 'post:published', { postId, creatorId }, { exceptRooms: [userRoom(creatorId)] });
  realtime.toUser(creatorId, 'post:published', { postId, creatorId, optimisticId });
}
