import { z } from 'zod';
import { joinedCursor } from './cursor-schema';
import { NOTIFICATION_KINDS } from './notifications';

export const NotificationListInput = z.object({
  cursor: joinedCursor('~').nullish(),
  kind: z.enum(NOTIFICATION_KINDS).nullish(),
});
export type NotificationListInput = z.infer<typeof NotificationListInput>;

export const NotificationIdInput = z.object({ id: z.uuid() });

export const NotificationPreferenceInput = z.object({
  kind: z.enum(NOTIFICATION_KINDS),
  inApp: z.boolean(),
  email: z.boolean(),
  push: z.boolean(),
});
export type NotificationPreferenceInput = z.infer<typeof NotificationPreferenceInput>;

/** What a browser's PushSubscription.toJSON() carries; the endpoint must be https (or a test's localhost). */
export const PushSubscriptionInput = z.object({
  endpoint: z.url().max(2000),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;
export const PushEndpointInput = z.object({ endpoint: z.url().max(2000) });
