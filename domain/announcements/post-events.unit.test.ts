import { describe, expect, it } from 'vitest';
import { PROFILE_VISIBILITIES, type ProfileVisibility } from '../../common/enums';
import type { EmitOptions, Realtime } from '../../core/realtime/realtime';
import { announceDraftReady, announcePostFailed, announcePostPublished, announceProgress } from './post-events';

type Sent = { rooms: string[]; event: string; payload: unknown; options?: EmitOptions };

/** A Realtime that records what would be sent, room by room (toUser is the user's room). */
function recorder(): Realtime & { sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    disconnectSessions: async () => {},
    forgetSessions: async () => {},
    reauthoriseRooms: () => {},
    onForgetSessions: () => () => {},
    toUser(userId, event, payload, options) {
      sent.push({ rooms: [`user:${userId}`], event, payload, options });
    },
    toRooms(rooms, event, payload, options) {
      sent.push({ rooms: [rooms].flat(), event, payload, options });
    },
  };
}

const post = { postId: 'p1', creatorId: 'c1', optimisticId: 'opt-1' };
const roomsOf = (sent: Sent[]) => sent.flatMap((s) => s.rooms).sort();

describe('who hears of a post', () => {
  it('publishes to the creator always, and to open feeds only when everyone may see the creator', () => {
    const feedHears: Record<string, boolean> = {};
    for (const visibility of [...PROFILE_VISIBILITIES, null] as (ProfileVisibility | null)[]) {
      const realtime = recorder();
      announcePostPublished(realtime, post, visibility);
      expect(realtime.sent.every((s) => s.event === 'post:published')).toBe(true);
      expect(roomsOf(realtime.sent)).toContain('user:c1');
      // the creator's copy carries the optimistic card's id
      expect(realtime.sent.find((s) => s.rooms.includes('user:c1'))?.payload).toMatchObject({ postId: 'p1', creatorId: 'c1', optimisticId: 'opt-1' });
      feedHears[String(visibility)] = roomsOf(realtime.sent).includes('feed');
    }
    // friends-only creators are seen by their active subscribers only, so the open 'feed' room must not hear them
    expect(feedHears).toEqual({ public: true, friends: false, null: true, private: false, hidden: false });
  });

  it('tells the creator alone of a failure, a finished draft and progress', () => {
    const realtime = recorder();
    announcePostFailed(realtime, post, 'This file is not a valid JPG file.');
    announceDraftReady(realtime, post);
    announceProgress(realtime, post, 40);
    expect(realtime.sent.map((s) => [s.rooms, s.event, s.payload])).toEqual([
      [['user:c1'], 'post:failed', { postId: 'p1', optimisticId: 'opt-1', reason: 'This file is not a valid JPG file.' }],
      [['user:c1'], 'post:draft-ready', { postId: 'p1', optimisticId: 'opt-1' }],
      [['user:c1'], 'post:progress', { postId: 'p1', optimisticId: 'opt-1', percent: 40 }],
    ]);
  });
});
