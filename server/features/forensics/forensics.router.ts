import { TracesInput } from '../../../common/forensics-schemas';
import { adminProcedure, authedProcedure, router } from '../../trpc/init';
import { listPostTraces, listRecentTraces } from './forensics.service';

export const forensicsRouter = router({
  traces: authedProcedure.input(TracesInput).query(({ ctx, input }) => listPostTraces(ctx.db, ctx.user, input.postId)),
  recent: adminProcedure.query(({ ctx }) => listRecentTraces(ctx.db)),
});
