import type { MessageDto } from '../../../common/message-dtos';
import type { AppDeps } from '../../../core/deps';
import type { EmitOrigin } from '../../../core/realtime/realtime';
import { toMessageDto } from './messages.dto';
import { countUnreadMessages, findMessagesByIds, type MessageRow } from './messages.queries';

/**
 * Who hears of a message's changes: its two participants, each in their own room `user:<id>`
 * (every tab of theirs), the tab that made the change left out (it applied it already). Every
 * payload is built per receiver from the row (toMessageDto: their reactions, and a pay-per-view
 * file, or a quote of one, closed to a recipient who has not bought it).
 */
export type EventDeps = Pick<AppDeps, 'db' | 'realtime'> & Partial<EmitOrigin>;

/** `message:new` (a new message has no reactions yet): each participant its own view; returns the sender's. */
export function emitMessageNew(deps: EventDeps, row: MessageRow): MessageDto {
  const except = deps.socketId ?? null;
  const senderView = toMessageDto(row, row.sender_id);
  deps.realtime.toUser(row.recipient_id, 'message:new', { message: toMessageDto(row, row.recipient_id) }, { except });
  deps.realtime.toUser(row.sender_id, 'message:new', { message: senderView }, { except });
  return senderView;
}

/** `message:updated` with each participant's own view of the message; returns those views by user id. */
export async function emitMessageUpdated(deps: EventDeps, messageId: string, participants: [string, string]): Promise<Map<string, MessageDto>> {
  const views = new Map<string, MessageDto>();
  for (const userId of participants) {
    const [row] = await findMessagesByIds(deps.db, userId, [messageId]);
    if (!row) continue;
    const message = toMessageDto(row, userId);
    views.set(userId, message);
    deps.realtime.toUser(userId, 'message:updated', { message }, { except: deps.socketId ?? null });
  }
  return views;
}

/**
 * Pushes the user's new unread count to their own room (`unread:changed`), so the badge of every
 * tab they have open follows without polling. Whatever changes the count (a message to them, one
 * of theirs read or deleted) calls this once it has committed.
 */
export async function announceUnreadCount(deps: Pick<AppDeps, 'db' | 'realtime'>, userId: string): Promise<number> {
  const count = await countUnreadMessages(deps.db, userId);
  deps.realtime.toUser(userId, 'unread:changed', { count });
  return count;
}
