import type { ProfileVisibility } from '../../common/enums';
import type { Messaging } from '../../common/message-dtos';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { canSeeProfile } from './access';
import { findAttachmentAudience, findMessagingFacts } from './messaging.queries';
import { toBadgedPerson } from '../people/person-columns';

/**
 * THE messaging rule: who may find a partner, write to them, and see a chat file. Every
 * messages procedure, the typing and presence signals, and the media route decide through here.
 *
 * - A partner is *known* to the viewer when the viewer may see their profile (the profile rule of
 *   ./access.ts: private and hidden to nobody else, 'friends' to active subscribers), or when the
 *   two already have a conversation (the viewer has their messages anyway). Anyone else is
 *   answered exactly like an unknown username ('User not found').
 * - The viewer may *write* when the profile is visible to them and neither has blocked the other.
 *   A block by the partner and a private profile read the same ('unavailable'): no more is said.
 * - Nobody messages themselves.
 */
export interface MessagingFacts {
  viewerId: string;
  partnerId: string;
  visibility: ProfileVisibility | null;
  viewerIsSubscriber: boolean;
  blockedByViewer: boolean;
  blockedByPartner: boolean;
  hasConversation: boolean;
}

export interface MessagingDecision {
  known: boolean;
  messaging: Messaging;
}

export function decideMessaging(f: MessagingFacts): MessagingDecision {
  if (f.viewerId === f.partnerId) return { known: false, messaging: 'unavailable' };
  const profileVisible = canSeeProfile(f.viewerId, f.partnerId, f.visibility, f.viewerIsSubscriber);
  const known = profileVisible || f.hasConversation;
  const messaging: Messaging = f.blockedByViewer ? 'blocked-by-you' : f.blockedByPartner || !profileVisible ? 'unavailable' : 'available';
  return { known, messaging };
}

export interface LoadedPartner extends MessagingDecision {
  profile: { id: string; username: string; displayName: string; avatarUrl: string | null; isVerified: boolean; isPremium: boolean };
  showOnlineStatus: boolean;
}

/** The partner as the viewer may know them; null when unknown or not known to the viewer (one query). */
export async function loadPartner(db: DB, viewerId: string, partner: { username: string } | { id: string }): Promise<LoadedPartner | null> {
  const row = await findMessagingFacts(db, viewerId, partner);
  if (!row) return null;
  const decision = decideMessaging({
    viewerId,
    partnerId: row.id,
    visibility: row.profile_visibility,
    viewerIsSubscriber: row.viewer_is_subscriber,
    blockedByViewer: row.blocked_by_viewer,
    blockedByPartner: row.blocked_by_partner,
    hasConversation: row.has_conversation,
  });
  if (!decision.known) return null;
  // fields named, not spread: a spread given more fields outlives its request on Node 20
  // (docs/performance.md, "Spread objects outlive their request")
  return {
    known: decision.known,
    messaging: decision.messaging,
    showOnlineStatus: row.show_online_status,
    profile: toBadgedPerson(row),
  };
}

/**
 * Whether `senderId` may send a message to `recipientId` now. Editing a message and reacting to
 * one reach the partner like a message does, so they ask the same question.
 */
export async function canMessage(db: DB, senderId: string, recipientId: string): Promise<boolean> {
  return (await loadPartner(db, senderId, { id: recipientId }))?.messaging === 'available';
}

export type MessageMediaDecision =
  | { outcome: 'not-found' }
  | { outcome: 'forbidden' }
  | { outcome: 'ok'; file: { attachmentId: string; storageKey: string; contentType: string; fileName: string; byteSize: number } };

/**
 * Whether a message's file is open to the viewer (issue 27 item 3): to its sender always; to its
 * recipient when it is free or they bought it (`unlocked`: `messageUnlockedBy`, the SQL half, read
 * with the message); to nobody else. A refund or a dispute takes the purchase back, and with it the file.
 */
export function messageFileOpen(f: { viewerId: string | null; senderId: string; recipientId: string; priceCents: number | null; unlocked: boolean }): boolean {
  if (f.viewerId === null) return false;
  if (f.viewerId === f.senderId) return true;
  if (f.viewerId !== f.recipientId) return false;
  return f.priceCents === null || f.unlocked;
}

/**
 * Who may see a chat file: its uploader, and the two participants of a message carrying it, a
 * pay-per-view one's recipient only once bought (`messageFileOpen`).
 * 404 for an unknown id or a file not ready yet; 403 for anyone else (signed out included).
 */
export function canSeeMessageMedia(db: DB, viewerId: string | null, attachmentId: string): Promise<MessageMediaDecision> {
  return decideMessageFile(db, viewerId, attachmentId, (m) => messageFileOpen({ viewerId, ...m }));
}

/**
 * Who may see a chat file's blurred preview (issue 27 item 3): whoever may see the file, and a
 * pay-per-view message's recipient before buying it (the preview is what Unlock is offered on).
 */
export function canSeeMessagePreview(db: DB, viewerId: string | null, attachmentId: string): Promise<MessageMediaDecision> {
  return decideMessageFile(db, viewerId, attachmentId, (m) => viewerId === m.senderId || viewerId === m.recipientId);
}

type MessageOfFile = { senderId: string; recipientId: string; priceCents: number | null; unlocked: boolean };

async function decideMessageFile(db: DB, viewerId: string | null, attachmentId: string, opens: (m: MessageOfFile) => boolean): Promise<MessageMediaDecision> {
  const row = await findAttachmentAudience(db, attachmentId, viewerId);
  if (!row) return { outcome: 'not-found' };
  const owner = viewerId !== null && row.owner_id === viewerId;
  const viaMessage =
    viewerId !== null &&
    row.sender_id !== null &&
    row.recipient_id !== null &&
    opens({ senderId: row.sender_id, recipientId: row.recipient_id, priceCents: readCents(row.price_cents), unlocked: Boolean(row.unlocked) });
  if (!owner && !viaMessage) return { outcome: 'forbidden' };
  if (row.status !== 'ready' || !row.storage_key || !row.content_type) return { outcome: 'not-found' };
  return {
    outcome: 'ok',
    file: {
      attachmentId: row.id,
      storageKey: row.storage_key,
      contentType: row.content_type,
      fileName: row.original_filename,
      byteSize: Number(row.byte_size),
    },
  };
}
