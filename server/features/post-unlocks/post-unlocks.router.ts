import { PostIdInput } from '../../../common/post-schemas';
import { UnlockPostInput } from '../../../common/post-unlock';
import { BILLING_TEXTS } from '../../../common/texts';
import { authedProcedure, authedProcedureSaying, router } from '../../trpc/init';
import { unlockPost, unlockStats } from './post-unlocks.service';

export const postUnlocksRouter = router({
  /** One confirmed charge per idempotency key opens a pay-per-view post for good (docs/payments.md, Pay-per-view posts). */
  unlock: authedProcedureSaying(BILLING_TEXTS.signInToSubscribe).input(UnlockPostInput).mutation(({ ctx, input }) => unlockPost(ctx, ctx.user.id, input)),
  /** The post's unlocks and revenue, for its creator. */
  stats: authedProcedure.input(PostIdInput).query(({ ctx, input }) => unlockStats(ctx, ctx.user.id, input.postId)),
});
