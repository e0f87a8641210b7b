import { authRouter } from '../features/auth/auth.router';
import { creatorsRouter } from '../features/creators/creators.router';
import { messagesRouter } from '../features/messages/messages.router';
import { router } from './init';

export const appRouter = router({
  auth: authRouter,
  creators: creatorsRouter,
  messages: messagesRouter,
});

export type AppRouter = typeof appRouter;
