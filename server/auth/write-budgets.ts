import type { Redis } from 'ioredis';
import { AUTH_TEXTS, MESSAGE_TEXTS, SERVER_TEXTS } from '../../common/texts';
import { isDependencyUnavailable } from '../../core/dependency-errors';
import { countLocally } from './local-rate-limit';
import { hitRateLimit, type RateLimit, type RateLimitResult } from './rate-limit';

/**
 * What one user (and one address) may write in a window, per action. Counted in Redis under
 * `<prefix>:rl:write:<action>:user:<id>` and `...:ip:<address>`, both fixed windows. The address
 * budget is wider than the user's: several people share one address behind a NAT.
 */
export interface WriteBudget {
  user: RateLimit;
  ip: RateLimit;
  /** the refusal's words where the product has its own for this action */
  message?: string;
  /**
   * With Redis out of reach, refuse (503) instead of counting in memory: credentials (a guesser
   * must never get N copies' worth of attempts), money and the account's own security.
   */
  failClosed?: true;
}

const per = (points: number, windowSeconds: number): RateLimit => ({ points, windowSeconds });
const MINUTE = 60;
const HOUR = 3600;

/**
 * The kinds of write, each one budget. The actions with a limit of their own keep it and its text
 * (sign-in and the other credential attempts: AUTH_RATE_LIMIT a minute; sending a message: 30 a
 * minute; chat attachments: 20 a minute): their budget here is a wider net under that limit.
 */
export const BUDGETS = {
  /** sign-in, sign-up, reset, 2FA codes, e-mail confirmation, sign-out */
  credentials: { user: per(30, MINUTE), ip: per(60, MINUTE), message: AUTH_TEXTS.tooManyAttempts, failClosed: true },
  /** likes, bookmarks, reactions, read receipts: one tap each */
  tap: { user: per(60, MINUTE), ip: per(600, MINUTE) },
  comment: { user: per(10, MINUTE), ip: per(100, MINUTE) },
  messageSend: { user: per(60, MINUTE), ip: per(600, MINUTE), message: MESSAGE_TEXTS.sendRateLimited },
  /** editing or deleting one's own message */
  messageChange: { user: per(30, MINUTE), ip: per(300, MINUTE) },
  /** the client sends one every 3 s at most while its user types */
  typing: { user: per(30, MINUTE), ip: per(300, MINUTE) },
  /** block, unblock, report */
  safety: { user: per(20, 10 * MINUTE), ip: per(200, 10 * MINUTE) },
  /** settings screens, media settings, social links */
  settings: { user: per(20, MINUTE), ip: per(200, MINUTE) },
  /** things that add rows a creator keeps: tiers, profile links, becoming a creator */
  creation: { user: per(30, HOUR), ip: per(300, HOUR) },
  /** posts' lifecycle: delete, publish a draft, retry processing */
  posts: { user: per(30, MINUTE), ip: per(300, MINUTE) },
  /** subscribing, cancelling, resuming, Premium */
  payments: { user: per(30, MINUTE), ip: per(300, MINUTE), failClosed: true },
  /** password, two-factor, ending sessions (the attempts also count under AUTH_RATE_LIMIT) */
  security: { user: per(30, MINUTE), ip: per(300, MINUTE), failClosed: true },
  /** hide, delete, export: rare and costly */
  account: { user: per(10, HOUR), ip: per(100, HOUR), failClosed: true },
  /** admin moderation */
  admin: { user: per(120, MINUTE), ip: per(600, MINUTE) },
  /** POST /avatar: each upload is a job for the worker */
  avatar: { user: per(10, 10 * MINUTE), ip: per(100, 10 * MINUTE) },
  /** POST /forensics/posts/:id/traces: each is a file stored and a trace decoded by the worker */
  leakTrace: { user: per(10, HOUR), ip: per(50, HOUR) },
  /** creating a tus upload (a post) */
  uploadCreate: { user: per(30, MINUTE), ip: per(300, MINUTE) },
  /** tus PATCH (chunks) and DELETE of one's uploads */
  uploadChunk: { user: per(600, MINUTE), ip: per(3000, MINUTE) },
  /** POST /message-attachments (its own limit: 20 a minute per user) */
  attachment: { user: per(40, MINUTE), ip: per(400, MINUTE), message: MESSAGE_TEXTS.uploadRateLimited },
  /** any other write: Bull Board's actions, unknown paths, a mutation missing from the table */
  other: { user: per(60, MINUTE), ip: per(300, MINUTE) },
} as const satisfies Record<string, WriteBudget>;

export type BudgetName = keyof typeof BUDGETS;

/**
 * Every tRPC mutation's budget. A test walks appRouter's mutations and fails on one missing here;
 * a mutation missing anyway (never shipped so) gets `other`.
 */
export const PROCEDURE_BUDGETS: Readonly<Record<string, BudgetName>> = {
  'account.deleteAccount': 'account',
  'account.deleteAllData': 'account',
  'account.requestExport': 'account',
  'account.setHidden': 'settings',
  'auth.confirmEmail': 'credentials',
  'auth.requestPasswordReset': 'credentials',
  'auth.resetPassword': 'credentials',
  'auth.signIn': 'credentials',
  'auth.signOut': 'credentials',
  'auth.signUp': 'credentials',
  'auth.verifyTwoFactor': 'credentials',
  'bookmarks.add': 'tap',
  'bookmarks.remove': 'tap',
  'comments.add': 'comment',
  'creators.become': 'creation',
  'mediaSettings.save': 'settings',
  'notifications.markAllRead': 'tap',
  'notifications.markRead': 'tap',
  'notifications.savePreference': 'settings',
  'notifications.subscribePush': 'settings',
  'notifications.unsubscribePush': 'settings',
  'messages.block': 'safety',
  'messages.closeReport': 'admin',
  'messages.delete': 'messageChange',
  'messages.edit': 'messageChange',
  'messages.markRead': 'tap',
  'messages.openReport': 'admin',
  'messages.removeReportedMessage': 'admin',
  'messages.suspendReportedSender': 'admin',
  'messages.react': 'tap',
  'messages.report': 'safety',
  'messages.send': 'messageSend',
  'massMessages.create': 'creation',
  'messages.unlock': 'payments',
  'messages.typing': 'typing',
  'messages.unblock': 'safety',
  'payments.adminRefund': 'admin',
  'earnings.withdraw': 'payments',
  'earnings.setUpPayouts': 'payments',
  'cards.add': 'payments',
  'cards.remove': 'payments',
  'cards.addTest': 'payments',
  'cards.makeDefault': 'payments',
  'cards.removeTest': 'payments',
  'posts.delete': 'posts',
  'posts.edit': 'posts',
  'posts.pin': 'posts',
  'posts.like': 'tap',
  'posts.removeFailedFile': 'posts',
  'vault.createPost': 'posts',
  'vault.deleteFile': 'posts',
  'messages.attachFromVault': 'attachment',
  'posts.retryProcessing': 'posts',
  'posts.unlike': 'tap',
  'profiles.addLink': 'creation',
  'profiles.cancelSchedule': 'posts',
  'profiles.deleteLink': 'settings',
  'profiles.dismissUpgradeCard': 'settings',
  'profiles.publishDraft': 'posts',
  'profiles.reschedule': 'posts',
  'profiles.updateSocialLinks': 'settings',
  'security.changePassword': 'security',
  'security.confirmTwoFactor': 'security',
  'security.disableTwoFactor': 'security',
  'security.revokeSession': 'security',
  'security.startTwoFactor': 'security',
  'settings.saveContent': 'settings',
  'settings.saveNotifications': 'settings',
  'settings.savePrivacy': 'settings',
  'settings.updatePersonalInfo': 'settings',
  'settings.verifyIdentityForTesting': 'settings',
  'subscriptions.cancel': 'payments',
  'subscriptions.resume': 'payments',
  'subscriptions.subscribe': 'payments',
  'subscriptions.upgradePremium': 'payments',
  'tiers.create': 'creation',
  'tiers.delete': 'settings',
  'tiers.update': 'settings',
  'offers.create': 'creation',
  'offers.disable': 'settings',
  'tips.send': 'payments',
  'postUnlocks.unlock': 'payments',
  'trials.claim': 'payments',
  'trials.create': 'creation',
  'trials.disable': 'settings',
  'bundles.set': 'settings',
};

/**
 * The plain HTTP writes (POST, PUT, PATCH, DELETE) outside /trpc, by method and path. Stripe's
 * webhooks are not here: they are signed by Stripe, mounted before this, and Stripe retries.
 */
export const HTTP_WRITE_BUDGETS: readonly { method: string; path: RegExp; budget: BudgetName }[] = [
  { method: 'POST', path: /^\/avatar\/?$/, budget: 'avatar' },
  { method: 'POST', path: /^\/forensics\/posts\/[^/]+\/traces\/?$/, budget: 'leakTrace' },
  { method: 'POST', path: /^\/message-attachments\/?$/, budget: 'attachment' },
  { method: 'POST', path: /^\/uploads\/?$/, budget: 'uploadCreate' },
  { method: 'PATCH', path: /^\/uploads\/[^/]+$/, budget: 'uploadChunk' },
  { method: 'DELETE', path: /^\/uploads\/[^/]+$/, budget: 'uploadChunk' },
];

export function httpWriteBudget(method: string, path: string): BudgetName {
  return HTTP_WRITE_BUDGETS.find((r) => r.method === method && r.path.test(path))?.budget ?? 'other';
}

export type BudgetVerdict =
  | { outcome: 'allowed' }
  | { outcome: 'over'; retryAfterSeconds: number; message: string }
  | { outcome: 'unavailable'; error: unknown };

/**
 * Counts one write of `action` against its budget for the user (when signed in) and the address.
 * `scale` multiplies every budget (WRITE_BUDGET_SCALE; the browser tests, one address for every
 * user, raise it). With the counters out of reach (Redis down) an ordinary write is counted in
 * this process's memory against the same budget (server/auth/local-rate-limit.ts), so the app
 * keeps working; a `failClosed` budget's verdict is 'unavailable' and the callers refuse (503).
 */
export async function spendWriteBudget(
  deps: { redis: Redis; config: { REDIS_PREFIX: string; WRITE_BUDGET_SCALE: number } },
  action: string,
  budgetName: BudgetName,
  who: { userId: string | null; ip: string },
): Promise<BudgetVerdict> {
  const budget: WriteBudget = BUDGETS[budgetName];
  const scale = deps.config.WRITE_BUDGET_SCALE;
  const scaled = (limit: RateLimit) => ({ ...limit, points: Math.max(1, Math.round(limit.points * scale)) });
  const bucket = `write:${action}`;
  let results: (RateLimitResult | null)[];
  try {
    results = await Promise.all([
      hitRateLimit(deps.redis, deps.config.REDIS_PREFIX, bucket, [`ip:${who.ip}`], scaled(budget.ip)),
      who.userId ? hitRateLimit(deps.redis, deps.config.REDIS_PREFIX, bucket, [`user:${who.userId}`], scaled(budget.user)) : null,
    ]);
  } catch (error) {
    if (budget.failClosed || !isDependencyUnavailable(error)) return { outcome: 'unavailable', error };
    results = [
      countLocally(`${bucket}:ip`, scaled(budget.ip), who.ip),
      who.userId ? countLocally(`${bucket}:user`, scaled(budget.user), who.userId) : null,
    ];
  }
  const over = results.filter((r) => r !== null && !r.allowed);
  if (over.length === 0) return { outcome: 'allowed' };
  return {
    outcome: 'over',
    retryAfterSeconds: Math.max(...over.map((r) => r!.retryAfterSeconds)),
    message: budget.message ?? SERVER_TEXTS.tooManyRequests,
  };
}
