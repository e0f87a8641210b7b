import { publicProcedure, router } from '../../trpc/init';
import { featuredCreators } from './creators.service';

export const creatorsRouter = router({
  /** Up to 6 public creators, verified first, then premium, then newest. */
  featured: publicProcedure.query(({ ctx }) => featuredCreators(ctx)),
});
