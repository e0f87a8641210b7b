import { authRouter } from '../features/auth/auth.router';
import { bookmarksRouter } from '../features/bookmarks/bookmarks.router';
import { commentsRouter } from '../features/comments/comments.router';
import { creatorsRouter } from '../features/creators/creators.router';
import { exploreRouter } from '../features/explore/explore.router';
import { mediaSettingsRouter } from '../features/media-settings/media-settings.router';
import { messagesRouter } from '../features/messages/messages.router';
import { postsRouter } from '../features/posts/posts.router';
import { profilesRouter } from '../features/profiles/profiles.router';
import { uploadsRouter } from '../features/uploads/uploads.router';
import { router } from './init';

export const appRouter = router({
  auth: authRouter,
  creators: creatorsRouter,
  messages: messagesRouter,
  posts: postsRouter,
  comments: commentsRouter,
  bookmarks: bookmarksRouter,
  profiles: profilesRouter,
  explore: exploreRouter,
  mediaSettings: mediaSettingsRouter,
  uploads: uploadsRouter,
});

export type AppRouter = typeof appRouter;
