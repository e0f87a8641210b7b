/**
 * Notifications (issue 28): the kinds, who is told, the channels each can go by and the defaults
 * every user starts with. Imported by the server (which decides), the worker (which delivers) and
 * the browser (which shows the centre and the settings table). No zod here: route files may read it.
 */
export const NOTIFICATION_KINDS = [
  'new-subscriber',
  'subscription-renewed',
  'subscription-canceled',
  'tip',
  'purchase',
  'comment',
  'reply',
  'like',
  'new-post',
  'message',
  'renewal-failed',
  'subscription-ending',
  'payout-sent',
  'payout-failed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_CHANNELS = ['inApp', 'email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export type ChannelChoice = Record<NotificationChannel, boolean>;

export interface NotificationKindInfo {
  /** the settings table's row label and the centre's filter */
  label: string;
  /** who gets it: creators' kinds are listed in the settings of creators only */
  audience: 'creator' | 'fan' | 'everyone';
  defaults: ChannelChoice;
  /** a mail exists for this kind (the others have no e-mail column to set) */
  hasEmail: boolean;
}

/**
 * Sensible defaults: what someone waits for (money, a message, a subscriber, a failed renewal)
 * goes everywhere it can; what comes in bursts (likes, renewals of others) stays in the app.
 */
export const NOTIFICATION_KIND_INFO: Record<NotificationKind, NotificationKindInfo> = {
  'new-subscriber': { label: 'New subscribers', audience: 'creator', defaults: { inApp: true, email: false, push: true }, hasEmail: false },
  'subscription-renewed': { label: 'Renewals', audience: 'creator', defaults: { inApp: true, email: false, push: false }, hasEmail: false },
  'subscription-canceled': { label: 'Cancellations', audience: 'creator', defaults: { inApp: true, email: false, push: false }, hasEmail: false },
  tip: { label: 'Tips', audience: 'creator', defaults: { inApp: true, email: false, push: true }, hasEmail: false },
  purchase: { label: 'Purchases', audience: 'creator', defaults: { inApp: true, email: false, push: true }, hasEmail: false },
  comment: { label: 'Comments on your posts', audience: 'everyone', defaults: { inApp: true, email: false, push: true }, hasEmail: false },
  reply: { label: 'Replies to your comments', audience: 'everyone', defaults: { inApp: true, email: false, push: true }, hasEmail: false },
  like: { label: 'Likes', audience: 'everyone', defaults: { inApp: true, email: false, push: false }, hasEmail: false },
  'new-post': { label: 'New posts from creators you subscribe to', audience: 'everyone', defaults: { inApp: true, email: false, push: true }, hasEmail: false },
  message: { label: 'Messages', audience: 'everyone', defaults: { inApp: true, email: true, push: true }, hasEmail: true },
  'renewal-failed': { label: 'Failed renewals', audience: 'everyone', defaults: { inApp: true, email: true, push: true }, hasEmail: true },
  'subscription-ending': { label: 'Subscriptions ending soon', audience: 'everyone', defaults: { inApp: true, email: true, push: true }, hasEmail: true },
  'payout-sent': { label: 'Payouts sent', audience: 'creator', defaults: { inApp: true, email: true, push: true }, hasEmail: true },
  'payout-failed': { label: 'Failed payouts', audience: 'creator', defaults: { inApp: true, email: true, push: true }, hasEmail: true },
};

export const isNotificationKind = (value: unknown): value is NotificationKind => typeof value === 'string' && (NOTIFICATION_KINDS as readonly string[]).includes(value);

/** What a row is about, and so where it leads. */
export type NotificationSubjectType = 'post' | 'user' | 'subscription' | 'payout' | 'payment';

/** One row of the centre. */
export interface NotificationDto {
  id: string;
  kind: NotificationKind;
  /** who did it (null: the platform, or an account since deleted) */
  actor: { username: string; displayName: string; avatarUrl: string | null } | null;
  /** people behind a grouped row ('Ava and 12 others'): 1 for a single event */
  actorCount: number;
  subject: { type: NotificationSubjectType; id: string | null };
  /** where the row leads; null when the subject is gone or no longer visible to the reader */
  href: string | null;
  read: boolean;
  /** ISO: the latest event of the row */
  at: string;
}

/** A row's sentence, the same in the centre and in a push ('Ava and 12 others liked your post'). */
export function notificationText(kind: NotificationKind, actorName: string | null, actorCount: number): string {
  const who = actorName ?? 'Someone';
  const others = actorCount - 1;
  const many = others > 0 ? `${who} and ${others} ${others === 1 ? 'other' : 'others'}` : who;
  switch (kind) {
    case 'new-subscriber':
      return `${who} subscribed to you`;
    case 'subscription-renewed':
      return `${who} renewed their subscription`;
    case 'subscription-canceled':
      return `${who} cancelled their subscription`;
    case 'tip':
      return `${who} sent you a tip`;
    case 'purchase':
      return `${who} bought your content`;
    case 'comment':
      return `${many} commented on your post`;
    case 'reply':
      return `${who} replied to your comment`;
    case 'like':
      return `${many} liked your post`;
    case 'new-post':
      return `${who} published a new post`;
    case 'message':
      return actorCount > 1 ? `${actorCount} new messages from ${who}` : `New message from ${who}`;
    case 'renewal-failed':
      return `Your subscription to ${who} could not be renewed`;
    case 'subscription-ending':
      return `Your subscription to ${who} ends soon`;
    case 'payout-sent':
      return 'Your payout was sent';
    case 'payout-failed':
      return 'Your payout failed';
  }
}

/** Said instead of opening a 404 when a row's subject was deleted or may no longer be seen. */
export const NOTIFICATION_SUBJECT_GONE = 'This is no longer available';

/** Per user and hour, at most this many pushes (then they wait for the centre). */
export const PUSH_CAP_PER_HOUR = 20;
/** Per user and hour, at most this many activity mails from notifications. */
export const EMAIL_CAP_PER_HOUR = 10;
export const NOTIFICATIONS_PAGE_SIZE = 20;

/** What the service worker shows: what happened and who, never a message's text. */
export interface PushPayload {
  title: string;
  body: string;
  /** the screen a click opens (a path of this site) */
  url: string;
  /** one notification per row on the device: a grouped row replaces its earlier push */
  tag: string;
}
