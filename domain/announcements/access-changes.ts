import type { Realtime } from '../../core/realtime/realtime';

/**
 * Who may hear a room is decided at the join; these say, after a commit, that it may have changed,
 * so every server copy re-runs the room authorisers (server/realtime/reauthorise.ts) and takes
 * out the sockets that may no longer hear.
 */

/**
 * The user's profile visibility or online-status setting changed: the rooms of their posts (for
 * whoever is in them) and their presence room are checked again.
 */
export function profileAccessChanged(realtime: Pick<Realtime, 'reauthoriseRooms'>, userId: string): void {
  realtime.reauthoriseRooms({ kind: 'post', creatorId: userId });
  realtime.reauthoriseRooms({ kind: 'presence', ids: [userId] });
}

/** A fan's subscription lapsed: the post and presence rooms their sockets are in are checked again ('friends' profiles). */
export function entitlementEnded(realtime: Pick<Realtime, 'reauthoriseRooms'>, fanId: string): void {
  realtime.reauthoriseRooms({ kind: 'post', userIds: [fanId] });
  realtime.reauthoriseRooms({ kind: 'presence', userIds: [fanId] });
}
