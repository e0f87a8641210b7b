import type { Messaging } from '../../../common/message-dtos';
import type { UsernameInput } from '../../../common/message-schemas';
import { loadPartner } from '../../../domain/access/messaging';
import { deleteBlock, insertBlock } from './blocks.queries';
import { partnerOrThrow, type MessagesDeps } from './messages.service';

/**
 * A block acts at once: both users' open threads hear their new state (`messaging:changed`: the
 * composer gives way to the reason, the online dot goes), and every server copy takes their
 * sockets out of each other's presence rooms. From then on nothing of the blocked user reaches
 * the blocker: sends, edits and reactions are refused, typing and read receipts are not passed on.
 */
export async function block(deps: MessagesDeps, userId: string, input: UsernameInput): Promise<{ messaging: Messaging }> {
  const found = await partnerOrThrow(deps, userId, input.username);
  await insertBlock(deps.db, userId, found.profile.id);
  await announceMessagingChange(deps, userId, found.profile.id);
  return { messaging: 'blocked-by-you' };
}

export async function unblock(deps: MessagesDeps, userId: string, input: UsernameInput): Promise<{ messaging: Messaging }> {
  const found = await partnerOrThrow(deps, userId, input.username);
  await deleteBlock(deps.db, userId, found.profile.id);
  const states = await announceMessagingChange(deps, userId, found.profile.id);
  return { messaging: states.get(userId) ?? 'unavailable' };
}

/** Each side's state toward the other, after a block or unblock, to their own rooms; presence rooms re-checked. */
async function announceMessagingChange(deps: MessagesDeps, a: string, b: string): Promise<Map<string, Messaging>> {
  const states = new Map<string, Messaging>();
  for (const [me, partnerId] of [
    [a, b],
    [b, a],
  ] as const) {
    const messaging = (await loadPartner(deps.db, me, { id: partnerId }))?.messaging ?? 'unavailable';
    states.set(me, messaging);
    deps.realtime.toUser(me, 'messaging:changed', { partnerId, messaging });
  }
  deps.realtime.reauthoriseRooms({ kind: 'presence', userIds: [a, b], ids: [a, b] });
  return states;
}
