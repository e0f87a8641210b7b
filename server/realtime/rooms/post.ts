import { filterVisiblePostIds } from '../../../domain/access/access';
import type { RoomAuthoriser } from './authoriser';

/**
 * `post:<id>`: the posts visible to the user, by the one access rule of the feed, the post page
 * and the media route (published, profile visible; drafts only to their creator). One query.
 */
export const authorisePostRooms: RoomAuthoriser = (deps, userId, ids) => filterVisiblePostIds(deps.db, userId, ids);
