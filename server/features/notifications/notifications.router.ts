import { NotificationIdInput, NotificationListInput, NotificationPreferenceInput, PushEndpointInput, PushSubscriptionInput } from '../../../common/notification-schemas';
import { preferencesOf, savePreference } from '../../../domain/notifications/preferences';
import { authedProcedure, router } from '../../trpc/init';
import * as centre from './notifications.service';
import * as push from './push.service';

/** Issue 28: the notification centre, the kinds × channels table and this browser's web push. */
export const notificationsRouter = router({
  /** /notifications: newest event first, keyset-paged, optionally one kind */
  list: authedProcedure.input(NotificationListInput).query(({ ctx, input }) => centre.listNotifications(ctx, ctx.user.id, input)),
  /** the bell's count (then kept live by `notifications:unread`) */
  unreadCount: authedProcedure.query(({ ctx }) => centre.unreadCount(ctx, ctx.user.id)),
  markRead: authedProcedure.input(NotificationIdInput).mutation(({ ctx, input }) => centre.markRead(ctx, ctx.user.id, input.id)),
  markAllRead: authedProcedure.mutation(({ ctx }) => centre.markAllRead(ctx, ctx.user.id)),
  /** the kinds × (in-app, e-mail, push) table, as set (the master switches apply on top) */
  preferences: authedProcedure.query(({ ctx }) => preferencesOf(ctx.db, ctx.user.id)),
  savePreference: authedProcedure.input(NotificationPreferenceInput).mutation(async ({ ctx, input }) => {
    await savePreference(ctx.db, ctx.user.id, input.kind, input);
    return preferencesOf(ctx.db, ctx.user.id);
  }),
  pushKey: authedProcedure.query(({ ctx }) => push.pushKey(ctx)),
  subscribePush: authedProcedure.input(PushSubscriptionInput).mutation(({ ctx, input }) => push.subscribePush(ctx, ctx.user.id, input)),
  unsubscribePush: authedProcedure.input(PushEndpointInput).mutation(({ ctx, input }) => push.unsubscribePush(ctx, ctx.user.id, input.endpoint)),
});
