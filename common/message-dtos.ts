import { messagePreviewUrl, type AttachmentStatus, type MessageMediaKind } from './messages';
import type { BadgedPersonDto } from './person-dtos';

/**
 * What the messages API returns (server/features/messages) and the socket carries
 * (common/socket-events.ts). Dates are ISO strings in both, so the client has one type.
 */

export type ChatPartnerDto = BadgedPersonDto;

export interface MessageAttachmentDto {
  id: string;
  kind: MessageMediaKind;
  status: AttachmentStatus;
  /** '/media/messages/<id>' once ready, else null */
  url: string | null;
  /** of the served file, once ready */
  contentType: string | null;
  /** the original file name ('' in a locked file: lockedAttachment) and size */
  fileName: string;
  byteSize: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  /** when failed: why, in words shown as they are */
  failureReason: string | null;
  /** a pay-per-view file not bought: its blurred preview ('/media/messages/<id>/preview'), the file itself closed */
  previewUrl?: string | null;
}

/**
 * A file with a price its recipient has not bought, as they see it: its kind, size and shape and
 * the blurred preview; no address, no type and no file name (a name can say what the file shows).
 * Shaped for a viewer only by domain/messaging/message-view.ts.
 */
export function lockedAttachment(a: MessageAttachmentDto): MessageAttachmentDto {
  return { ...a, url: null, contentType: null, fileName: '', previewUrl: a.status === 'ready' ? messagePreviewUrl(a.id) : null };
}

/** The quoted message of a reply (spec: reply_to_content, reply_to_media_url, reply_to_media_type). */
export interface MessageReplyDto {
  id: string;
  senderId: string;
  content: string | null;
  mediaType: MessageMediaKind | null;
  /** the quoted file's address, only when it is open to the viewer (never a locked pay-per-view file's) */
  mediaUrl: string | null;
}

/** Only emoji with a count above 0, in QUICK_EMOJI order; `mine`: the receiver reacted with it. */
export interface ReactionCountDto {
  emoji: string;
  count: number;
  mine: boolean;
}

export interface MessageDto {
  id: string;
  clientId: string | null;
  senderId: string;
  recipientId: string;
  content: string | null;
  attachment: MessageAttachmentDto | null;
  replyToId: string | null;
  /** null when there is no reply or the quoted message was deleted */
  replyTo: MessageReplyDto | null;
  createdAt: string;
  editedAt: string | null;
  readAt: string | null;
  reactions: ReactionCountDto[];
  /** pay-per-view (issue 27 item 3): the file's price, or null when free */
  price: string | null;
  /** whether the recipient bought it (the sender's bought / not bought); true when free */
  unlocked: boolean;
  /** for this viewer the file is closed (its address withheld) until bought */
  locked: boolean;
  /** a copy of a message to many */
  massMessageId: string | null;
}

export interface ChatLastMessageDto {
  id: string;
  senderId: string;
  content: string | null;
  mediaType: MessageMediaKind | null;
  createdAt: string;
}

export interface ChatPreviewDto {
  partner: ChatPartnerDto;
  lastMessage: ChatLastMessageDto | null;
  /** messages from this partner to me not read yet */
  unreadCount: number;
}

/**
 * Whether the caller may write to the partner: 'blocked-by-you' (unblock to write again) or
 * 'unavailable' (they blocked you, or their profile is private: deliberately no more said).
 */
export type Messaging = 'available' | 'blocked-by-you' | 'unavailable';

export interface PartnerDto {
  profile: ChatPartnerDto;
  /** null when the partner hides their online status */
  online: boolean | null;
  messaging: Messaging;
}

export interface MessageReportDto {
  id: string;
  reason: string;
  status: 'open' | 'closed';
  createdAt: string;
  reporter: ChatPartnerDto;
  sender: ChatPartnerDto | null;
  messageId: string | null;
  /** the message's text when it was reported */
  content: string | null;
  /** the message's file when it was reported, kept in storage the report owns (admins only: `url`) */
  evidence: { kind: string; name: string; url: string } | null;
  closedAt: string | null;
  /** what the admin did when closing it */
  resolution: 'dismissed' | 'content-removed' | 'account-suspended' | null;
}
