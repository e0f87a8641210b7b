import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  APP_URL: z.string().url().optional(),
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/creator'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]+$/).default('creator'),
  /**
   * A Redis Cluster instead of the one Redis at REDIS_URL: `host:port,host:port,...` (some of its
   * masters; the rest are found). REDIS_URL still gives the user, password and TLS. The queues'
   * keys then carry a hash tag (core/redis.ts, queuePrefix); docs/operations.md, "Redis Cluster".
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^\s*[^\s,:]+:\d+\s*(,\s*[^\s,:]+:\d+\s*)*$/, 'host:port,host:port,...')
    .optional(),
  STORAGE_DRIVER: z.enum(['disk', 's3']).default('disk'),
  STORAGE_DIR: z.string().default('data/storage'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY: z.string().optional(),
  S3_SECRET_KEY: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  /**
   * With STORAGE_DRIVER=s3 the media route answers a redirect to a presigned URL of the object.
   * Premium, pay-per-view and message media get URLs valid this long (a revoked entitlement stops
   * working within it); free media of public creators get hour-long shared URLs (server/http/media-redirect.ts).
   */
  /** Anonymous answers of public queries from a short memory cache per copy (server/http/public-cache.ts); off only to measure without it. */
  PUBLIC_CACHE: bool.default(true),
  MEDIA_SIGNED_URL_TTL_S: z.coerce.number().int().min(1).max(600).default(120),
  /**
   * The key the server signs HLS segment URLs with (docs/media.md): every server copy needs the
   * same one. Unset: a random key per process, so URLs work only on the copy that signed them.
   */
  MEDIA_URL_SECRET: z.string().min(32, 'at least 32 characters (e.g. openssl rand -hex 32)').optional(),
  /**
   * The key of the per-buyer forensic code of paid videos (docs/media.md, "The forensic mark"): the
   * server picks each viewer's A/B segments with it and the worker's trace recomputes them, so both
   * need the same one, and it must never change (a leak marked under an old key can no longer be
   * traced). Unset: derived from MEDIA_URL_SECRET (so also random per process when that is unset).
   */
  FORENSIC_SECRET: z.string().min(32, 'at least 32 characters (e.g. openssl rand -hex 32)').optional(),
  /** How long a segment URL in a viewer's playlist works (the player fetches the playlist again after). */
  HLS_URL_TTL_S: z.coerce.number().int().min(10).max(3600).default(300),
  /** Where a server copy keeps the pictures it marked per buyer (docs/media.md, "The picture mark"), and how much of them. */
  MARK_CACHE_DIR: z.string().default('data/mark-cache'),
  MARK_CACHE_MB: z.coerce.number().int().min(1).default(512),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('CreatorHub <no-reply@creatorhub.local>'),
  OUTBOX_DIR: z.string().default('data/outbox'),
  /** Where partial tus uploads are written (never served; outside any public path). */
  UPLOADS_DIR: z.string().default('data/uploads-incoming'),
  /** Partial uploads older than this are refused and deleted by the 'expire-uploads' job. */
  UPLOAD_EXPIRY_HOURS: z.coerce.number().positive().default(24),
  /** Jobs at once per worker copy: `media` (images, documents) and `transcode` (video, audio). */
  MEDIA_CONCURRENCY: z.coerce.number().int().min(1).default(4),
  TRANSCODE_CONCURRENCY: z.coerce.number().int().min(1).default(1),
  /** Chat attachments' own queues (never the posts'): `attachments` (images, documents) and `attachment-transcode` (video, audio). */
  ATTACHMENT_CONCURRENCY: z.coerce.number().int().min(1).default(2),
  ATTACHMENT_TRANSCODE_CONCURRENCY: z.coerce.number().int().min(1).default(1),
  /** Chat attachments one user may have processing at once; more uploads are refused until one is done. */
  MAX_PROCESSING_ATTACHMENTS_PER_USER: z.coerce.number().int().min(1).default(3),
  /** Chat attachments never sent in a message are deleted (row and files) this long after their upload. */
  UNSENT_ATTACHMENT_TTL_HOURS: z.coerce.number().positive().default(6),
  /**
   * How long a media job's lock lasts without renewal (renewed every half of it while the job
   * runs); a killed worker's job is recovered after it plus at most one stalled check: 20 s + 10 s.
   */
  MEDIA_LOCK_DURATION_MS: z.coerce.number().int().min(1000).default(20_000),
  /** How often workers look for stalled jobs (jobs whose worker died). */
  MEDIA_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(10_000),
  /** How often each worker looks for posts whose job Redis lost, and re-creates missing job schedules. */
  LOST_JOB_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(20_000),
  /** A post 'processing' this long without a change, whose job is not in Redis, is queued again. */
  LOST_JOB_AFTER_MS: z.coerce.number().int().min(0).default(30_000),
  /** A new PostgreSQL connection (or a free one from the pool) not had in this long fails the request (503). */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(2_000),
  /**
   * The hot lists' statements as named prepared statements, planned once per connection
   * (core/db/prepared-statements.ts). Off behind a pooler in transaction mode that does not keep
   * prepared statements (PgBouncer before 1.21).
   */
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  /** PostgreSQL cancels a statement running longer than this (a query the server does not answer fails this much later). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** A Redis command of the app (rate limits, queueing a job, realtime events) not answered in this long fails (503 where it matters). */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).default(1_000),
  /** On SIGTERM the server finishes in-flight requests (and `npm start`'s workers their jobs) within this long, then exits. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1000).default(25_000),
  /**
   * Stretches the time ffmpeg may spend on one video or audio upload (60 s + per frame and per
   * megapixel decoded and encoded for video, + 0.5x the audio's duration; worker/media/bounds.ts):
   * 2 on a slow machine. Past it the post fails.
   */
  MEDIA_TIME_LIMIT_SCALE: z.coerce.number().positive().default(1),
  /** Posts one creator may have processing (queued or in the worker) at once; more uploads are refused until one is done. */
  MAX_PROCESSING_POSTS_PER_CREATOR: z.coerce.number().int().min(1).default(5),
  /**
   * New-message mail: at most one per conversation in this long (one delayed job per conversation
   * and period, which then mails a summary 'N new messages from …'; docs/messaging.md).
   */
  MESSAGE_MAIL_QUIET_MS: z.coerce.number().int().min(1000).default(15 * 60_000),
  /**
   * Recipients per batch of a message to many, and subscribers per batch of a new post's fan-out:
   * each batch is one transaction with the outbox row of the next (issue 44). Smaller only to
   * test a long chain with few users.
   */
  MASS_MESSAGE_BATCH_SIZE: z.coerce.number().int().min(1).default(500),
  NOTIFY_FANOUT_BATCH_SIZE: z.coerce.number().int().min(1).default(1000),
  /** Pushes in flight at once within one fan-out batch's `send-push-batch` job (over the kept-alive connections). */
  PUSH_BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /**
   * Web push (issue 28): the VAPID key pair the push services know this server by (`npm start`
   * writes a new pair into `.env` when there is none) and the contact they may write to. Unset:
   * Push Notifications cannot be turned on and nothing is pushed.
   */
  VAPID_PUBLIC_KEY: z.string().min(20).optional(),
  VAPID_PRIVATE_KEY: z.string().min(20).optional(),
  VAPID_SUBJECT: z.string().default('mailto:admin@creatorhub.local'),
  /**
   * Tests only: a push endpoint on the loopback over plain http is accepted (the tests' own push
   * service). Off, the only endpoints are https to a public host name (core/push/endpoint.ts).
   */
  PUSH_ALLOW_LOCAL_ENDPOINTS: bool.default(false),
  /** On SIGTERM a worker lets active jobs finish this long, then hands them back to the queue. */
  WORKER_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** `npm run worker` only: serve the worker's own /metrics (job durations) on this port. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** A scraper's `Authorization: Bearer` for /metrics (server and worker); unset: admins' sessions only. */
  METRICS_TOKEN: z.string().min(32, 'at least 32 characters (e.g. openssl rand -hex 32)').optional(),
  FFMPEG_PATH: z.string().optional(),
  FFPROBE_PATH: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * The measured shortcuts through tRPC's and Express's insides (docs/operations.md, "Framework
   * shortcuts"): GET queries answered from tRPC's pieces, the lean output transformer, requests
   * made with Express's prototypes. Off: tRPC's Express adapter, superjson and node's classes,
   * as shipped, for an upgrade that breaks what the shortcuts rely on.
   */
  FRAMEWORK_SHORTCUTS: bool.default(true),
  /** Serve the built SPA from dist/ (off for `npm run dev`, where Vite serves it). */
  SERVE_SPA: bool.default(true),
  /** Render the pages whose routes say so (/, /{username}, /post/{id}) on the server from the build's renderer (dist/.ssr); false: the browser renders every page (the renderer still brings their first data). */
  SERVER_RENDER: bool.default(true),
  /** Where the built SPA is (npm run build writes dist/). */
  DIST_DIR: z.string().default('dist'),
  /** Run the BullMQ workers inside `npm run serve`'s process (scripts/serve.ts; `npm start` runs them unless RUN_WORKER=false). */
  RUN_WORKER: bool.default(false),
  /** Trust X-Forwarded-* from this many proxies (for the client IP used by rate limits). */
  TRUST_PROXY: z.coerce.number().int().min(0).default(0),
  /** Sign-in/sign-up/reset attempts allowed per IP and per account each minute. */
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  /** Multiplies every write budget (server/auth/write-budgets.ts); 1 in production. */
  WRITE_BUDGET_SCALE: z.coerce.number().positive().default(1),
  /** Stripe (docs/payments.md): with both set, payments go through Stripe Checkout and signed webhooks; else the built-in provider records them. */
  STRIPE_SECRET_KEY: z.string().startsWith('sk_', 'a Stripe secret key (sk_...)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_', 'a Stripe webhook signing secret (whsec_...)').optional(),
  /** Where the Stripe API is (unset: api.stripe.com); for stripe-mock or the tests' fake Stripe. */
  STRIPE_API_URL: z.string().url().optional(),
  /** The platform's share of each creator's charge, in whole percent (docs/payments.md, "Earnings and payouts"); Premium is all the platform's. */
  PLATFORM_FEE_PERCENT: z.coerce.number().int().min(0).max(100).default(20),
  /** A creator's earning is pending this many days (the chargeback window), then available. */
  EARNINGS_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /** The least a payout may be, in rand (Withdraw and the weekly run alike). */
  PAYOUT_MINIMUM: z.string().regex(/^\d+(\.\d{1,2})?$/, 'an amount in rand, e.g. 200 or 200.00').default('200.00'),
  /** The weekday of the automatic payouts (UTC; 0 = Sunday, 1 = Monday). */
  PAYOUT_WEEKDAY: z.coerce.number().int().min(0).max(6).default(1),
  /** Secure cookies; defaults to on when APP_URL is https. */
  COOKIE_SECURE: bool.optional(),
});

export type Config = z.infer<typeof ConfigSchema> & { appUrl: string; cookieSecure: boolean; mediaUrlKey: Buffer; forensicKey: Buffer };

/** Reads and validates settings once; a bad one stops the process with one line per problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `Invalid setting ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(lines);
  }
  const c = parsed.data;
  if (c.STORAGE_DRIVER === 's3') {
    const missing = (['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const).filter((k) => !c[k]);
    if (missing.length) throw new ConfigError(missing.map((k) => `Missing setting ${k}: required when STORAGE_DRIVER=s3`));
  }
  if (c.WORKER_METRICS_PORT && !c.METRICS_TOKEN) {
    throw new ConfigError(['Missing setting METRICS_TOKEN: required when WORKER_METRICS_PORT is set (the scraper sends it as a bearer token)']);
  }
  if (Boolean(c.STRIPE_SECRET_KEY) !== Boolean(c.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(['Missing setting: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together (or neither, for the built-in provider)']);
  }
  const appUrl = (c.APP_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  const mediaUrlKey = c.MEDIA_URL_SECRET ? Buffer.from(c.MEDIA_URL_SECRET, 'utf8') : randomBytes(32);
  // its own key, never the URL key itself: a URL signature and a mark bit are never made with the same key
  const forensicKey = c.FORENSIC_SECRET ? Buffer.from(c.FORENSIC_SECRET, 'utf8') : createHmac('sha256', mediaUrlKey).update('forensic-mark-key').digest();
  return { ...c, appUrl, cookieSecure: c.COOKIE_SECURE ?? appUrl.startsWith('https://'), mediaUrlKey, forensicKey };
}

export class ConfigError extends Error {
  constructor(public readonly lines: string[]) {
    super(lines.join('\n'));
  }
}
