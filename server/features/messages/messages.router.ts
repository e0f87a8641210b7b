import { authedProcedure, router } from '../../trpc/init';
import { unreadCount } from './messages.service';

export const messagesRouter = router({
  /** Messages to the signed-in user not read yet. */
  unreadCount: authedProcedure.query(({ ctx }) => unreadCount(ctx, ctx.user.id)),
});
