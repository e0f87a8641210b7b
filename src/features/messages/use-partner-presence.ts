import { useEffect } from 'react';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { useIsRoomJoined, useRoom } from '../../lib/realtime/rooms';
import { trpc } from '../../lib/trpc';

/**
 * The partner's online dot: their presence room (the server refuses it when they hide their
 * status, as `hidden` says they do) keeps the partner query's `online` up to date.
 */
export function usePartnerPresence(username: string, partnerId: string | null, hidden: boolean) {
  const utils = trpc.useUtils();
  useRoom('presence', hidden ? null : partnerId);
  useRealtimeEvent('presence', ({ userId, online }) => {
    if (userId !== partnerId) return;
    utils.messages.partner.setData({ username }, (data) => (data && data.online !== null ? { ...data, online } : data));
  });
  // The state read before the room was joined may be stale (the partner came online between
  // the two and that event went to a room we were not in yet): read it again once we are in.
  const presenceJoined = useIsRoomJoined('presence', partnerId ?? '');
  useEffect(() => {
    if (presenceJoined) void utils.messages.partner.invalidate({ username });
  }, [presenceJoined, utils, username]);
}
