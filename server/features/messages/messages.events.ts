import { lockedAttachment, type MessageDto } from '../../../common/message-dtos';
import type { AppDeps } from '../../../core/deps';
import type { EmitOrigin } from '../../../core/realtime/realtime';
import { toMessageDto } from './messages.dto';
import { countUnreadMessages, findMessagesByIds } from './messages.queries';

/**
 * Who hears of a message's changes: its two participants, each in their own room `user:<id>`
 * (every tab of theirs), the tab that made the change left out (it applied it already). Payloads
 * that depend on the receiver (`reactions[].mine`) are built once per receiver.
 */
export type EventDeps = Pick<AppDeps, 'db' | 'realtime'> & Partial<EmitOrigin>;

/**
 * `message:new` (a new message has no reactions yet): the sender's view to the sender, and to the
 * recipient the same with a pay-per-view file not bought closed (`recipientView`).
 */
export function emitMessageNew(deps: EventDeps, message: MessageDto) {
  const except = deps.socketId ?? null;
  deps.realtime.toUser(message.recipientId, 'message:new', { message: recipientView(message) }, { except });
  deps.realtime.toUser(message.senderId, 'message:new', { message }, { except });
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

/** The recipient's view of a message built for its sender: a file with a price not bought is closed. */
export function recipientView(message: MessageDto): MessageDto {
  if (message.price === null || message.unlocked) return message;
  return { ...message, locked: true, attachment: message.attachment && lockedAttachment(message.attachment) };
}
