import { CreateMassMessageInput, MassMessageListInput } from '../../../common/paid-message-schemas';
import { PAID_MESSAGE_TEXTS } from '../../../common/paid-message-texts';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { creatorProcedureSaying, router } from '../../trpc/init';
import { audiences, createMassMessage, listMassMessages } from './mass-messages.service';

const creatorOnly = creatorProcedureSaying({ signInRequired: MESSAGE_TEXTS.notAuthenticated, creatorsOnly: PAID_MESSAGE_TEXTS.massCreatorsOnly });

/** Messages to many (issue 27 item 4): the caller's own only; no input names another creator. */
export const massMessagesRouter = router({
  audiences: creatorOnly.query(({ ctx }) => audiences(ctx, ctx.user.id)),
  create: creatorOnly.input(CreateMassMessageInput).mutation(({ ctx, input }) => createMassMessage(ctx, ctx.user.id, input)),
  list: creatorOnly.input(MassMessageListInput).query(({ ctx, input }) => listMassMessages(ctx, ctx.user.id, input)),
});
