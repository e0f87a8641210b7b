import { ExploreCreatorsInput, ExploreSearchInput } from '../../../common/profile-schemas';
import { AUTH_TEXTS } from '../../../common/texts';
import { authedProcedureSaying, router } from '../../trpc/init';
import * as explore from './explore.service';

/** Explore needs a session: UNAUTHORIZED 'Please sign in to access the explore page' without one. */
const exploreProcedure = authedProcedureSaying(AUTH_TEXTS.exploreRequiresAuth.description);

export const exploreRouter = router({
  /**
   * Posts of public creators, newest first, `limit` (default 8) after `cursor`: `q` matches the
   * creator's username or display name (any part, any case) or the post's words; `categories`
   * keeps creators with any of them; both combine.
   */
  search: exploreProcedure.input(ExploreSearchInput).query(({ ctx, input }) => explore.search(ctx, ctx.user.id, input)),

  /** Up to 6 public creators matching the same `q` (names only) and chips. */
  creators: exploreProcedure.input(ExploreCreatorsInput).query(({ ctx, input }) => explore.creators(ctx, input)),
});
