import { vaultRouter } from '../features/vault/vault.router';
import { authRouter } from '../features/auth/auth.router';
import { bookmarksRouter } from '../features/bookmarks/bookmarks.router';
import { purchasesRouter } from '../features/purchases/purchases.router';
import { commentsRouter } from '../features/comments/comments.router';
import { creatorsRouter } from '../features/creators/creators.router';
import { exploreRouter } from '../features/explore/explore.router';
import { mediaSettingsRouter } from '../features/media-settings/media-settings.router';
import { messagesRouter } from '../features/messages/messages.router';
import { postsRouter } from '../features/posts/posts.router';
import { profilesRouter } from '../features/profiles/profiles.router';
import { settingsRouter } from '../features/settings/settings.router';
import { uploadsRouter } from '../features/uploads/uploads.router';
import { creatorStatsRouter } from '../features/creator-stats/creator-stats.router';
import { earningsRouter } from '../features/earnings/earnings.router';
import { paymentsRouter } from '../features/payments/payments.router';
import { subscriptionsRouter } from '../features/subscriptions/subscriptions.router';
import { tiersRouter } from '../features/tiers/tiers.router';
import { accountRouter } from '../features/account/account.router';
import { securityRouter } from '../features/security/security.router';
import { tipsRouter } from '../features/tips/tips.router';
import { postUnlocksRouter } from '../features/post-unlocks/post-unlocks.router';
import { offersRouter, trialsRouter } from '../features/trials/trials.router';
import { bundlesRouter } from '../features/bundles/bundles.router';
import { notificationsRouter } from '../features/notifications/notifications.router';
import { massMessagesRouter } from '../features/mass-messages/mass-messages.router';
import { cardsRouter } from '../features/cards/cards.router';
import { forensicsRouter } from '../features/forensics/forensics.router';
import { router } from './init';

export const appRouter = router({
  tiers: tiersRouter,
  subscriptions: subscriptionsRouter,
  payments: paymentsRouter,
  creatorStats: creatorStatsRouter,
  earnings: earningsRouter,
  auth: authRouter,
  creators: creatorsRouter,
  messages: messagesRouter,
  posts: postsRouter,
  forensics: forensicsRouter,
  comments: commentsRouter,
  bookmarks: bookmarksRouter,
  purchases: purchasesRouter,
  tips: tipsRouter,
  postUnlocks: postUnlocksRouter,
  trials: trialsRouter,
  offers: offersRouter,
  bundles: bundlesRouter,
  profiles: profilesRouter,
  explore: exploreRouter,
  mediaSettings: mediaSettingsRouter,
  settings: settingsRouter,
  uploads: uploadsRouter,
  vault: vaultRouter,
  security: securityRouter,
  account: accountRouter,
  notifications: notificationsRouter,
  massMessages: massMessagesRouter,
  cards: cardsRouter,
});

export type AppRouter = typeof appRouter;
