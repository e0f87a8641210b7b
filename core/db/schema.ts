import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { LadderRendition, LadderThumbnails } from '../../common/ladder';
import type { LeakTraceStatus } from '../../common/forensics';
import type {
  MediaKind,
  MediaVariant,
  PaymentInterval,
  PostStatus,
  ProfileVisibility,
  SubscriptionStatus,
  UserRole,
  WatermarkPosition,
  EmailTokenPurpose,
} from '../../common/enums';

/** Timestamps are written as Date or ISO strings and always read back as Date. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/**
 * Money in whole cents, bigint (docs/payments.md, "Money in cents"): pg returns int8 as a string,
 * read with readCents (core/db/cents.ts); written as a number of cents, never rand.
 */
type Cents = ColumnType<string, number, number>;
/** bigint: pg returns int8 as a string. */
type BigIntColumn = ColumnType<string, string | number | bigint, string | number | bigint>;

export interface CustomLink {
  title: string;
  url: string;
}
export interface SocialLinks {
  twitter?: string;
  instagram?: string;
  youtube?: string;
  website?: string;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  email_verified_at: Date | null;
  role: ColumnType<UserRole, UserRole | undefined, UserRole>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** set by an admin acting on a report: no sign-in, no sessions */
  suspended_at: Date | null;
}

export interface SessionsTable {
  /** hex SHA-256 of the session token; the token itself is never stored. */
  id: string;
  user_id: string;
  expires_at: Timestamp;
  created_at: CreatedAt;
  user_agent: string | null;
  ip: string | null;
  /** what the sessions list shows and revokes by (migrations/20261125_0004_security.ts) */
  public_id: Generated<string>;
  last_seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One TOTP factor per user; enabled_at is null until enrolment's first code (issue 13). */
export interface TotpCredentialsTable {
  user_id: string;
  secret: Buffer;
  enabled_at: Timestamp | null;
  /** the last 30-second step a code was accepted for: the same code never works twice */
  last_used_step: BigIntColumn | null;
  created_at: CreatedAt;
}

/** SHA-256 of each one-time recovery code. */
export interface RecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

/** "Download my data" zips, served to their owner until expires_at. */
export interface DataExportsTable {
  id: Generated<string>;
  user_id: string;
  status: ColumnType<'pending' | 'ready' | 'failed', 'pending' | 'ready' | 'failed' | undefined, 'pending' | 'ready' | 'failed'>;
  storage_key: string | null;
  byte_size: BigIntColumn | null;
  failure_reason: string | null;
  /** builds started (each counted before it starts): past DATA_EXPORT.maxRuns the export fails */
  runs: Generated<number>;
  created_at: CreatedAt;
  ready_at: Timestamp | null;
  expires_at: Timestamp;
}

/** Stored files whose rows were deleted, removed by a queued job (batch = the job's key). */
export interface StorageDeletionsTable {
  storage_key: string;
  batch: string;
  created_at: CreatedAt;
}

export interface EmailTokensTable {
  /** hex SHA-256 of the token mailed to the user. */
  id: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface ProfilesTable {
  /** same as users.id */
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  bio: string | null;
  categories: ColumnType<string[], string[] | undefined, string[]>;
  is_verified: Generated<boolean>;
  is_premium: Generated<boolean>;
  is_creator: Generated<boolean>;
  date_of_birth: ColumnType<string, string, string>;
  custom_links: ColumnType<CustomLink[], string | undefined, string>;
  social_links: ColumnType<SocialLinks, string | undefined, string>;
  upgrade_card_dismissed: Generated<boolean>;
  /** the avatar upload being re-encoded by the worker (migrations/20261125_0003_settings.ts) */
  avatar_pending_id: string | null;
  /** why the worker refused the last avatar upload */
  avatar_failure: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface PrivacySettingsTable {
  user_id: string;
  profile_visibility: ColumnType<ProfileVisibility, ProfileVisibility | undefined, ProfileVisibility>;
  /** while hidden (Hide Account): the visibility that Show returns to; null otherwise */
  visibility_before_hidden: ColumnType<Exclude<ProfileVisibility, 'hidden'> | null, Exclude<ProfileVisibility, 'hidden'> | null | undefined, Exclude<ProfileVisibility, 'hidden'> | null>;
  show_online_status: Generated<boolean>;
  allow_friend_requests: Generated<boolean>;
  updated_at: UpdatedAt;
}

export interface NotificationSettingsTable {
  user_id: string;
  email_notifications: Generated<boolean>;
  push_notifications: Generated<boolean>;
  marketing_emails: Generated<boolean>;
  updated_at: UpdatedAt;
}

export interface VerificationStatusTable {
  user_id: string;
  is_email_verified: Generated<boolean>;
  is_phone_verified: Generated<boolean>;
  is_identity_verified: Generated<boolean>;
  /** the built-in provider's test verification (docs/payments.md "Verified before selling") */
  identity_test_verified_at: Date | null;
  updated_at: UpdatedAt;
}

export interface MediaSettingsTable {
  creator_id: string;
  watermark_enabled: Generated<boolean>;
  watermark_text: string | null;
  watermark_position: ColumnType<WatermarkPosition, WatermarkPosition | undefined, WatermarkPosition>;
  /** issue 49 item 4: premium and pay-per-view pictures carry each buyer's mark (docs/media.md) */
  mark_paid_pictures: Generated<boolean>;
  updated_at: UpdatedAt;
}

/** Who was served a marked copy of which picture, with the seed it was drawn with (migrations/20261207_0200_picture_marks.ts). */
export interface PictureMarkIssuesTable {
  post_id: string;
  position: Generated<number>;
  viewer_id: string;
  seed: Buffer;
  label: string;
  first_at: CreatedAt;
}

/** A creator's defaults for new uploads and whether their posts take comments (issue 13). */
export interface ContentSettingsTable {
  user_id: string;
  default_nsfw: Generated<boolean>;
  default_paid: Generated<boolean>;
  comments_open: Generated<boolean>;
  updated_at: UpdatedAt;
}

/** creator_files of the spec. */
export interface PostsTable {
  id: Generated<string>;
  creator_id: string;
  title: string | null;
  post_text: string | null;
  hashtags: ColumnType<string[], string[] | undefined, string[]>;
  is_premium: Generated<boolean>;
  is_nsfw: Generated<boolean>;
  status: PostStatus;
  /** what the creator chose (draft, published or scheduled) while the media is processing */
  target_status: ColumnType<'draft' | 'published' | 'scheduled', 'draft' | 'published' | 'scheduled', 'draft' | 'published' | 'scheduled'>;
  media_kind: MediaKind | null;
  original_filename: string | null;
  failure_reason: string | null;
  optimistic_id: string | null;
  /** generated tsvector over post_text and hashtags */
  search: ColumnType<string, never, never>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  published_at: Timestamp | null;
  /** a scheduled post's time (migrations/20261127_1000_scheduled_posts.ts): set while status or target_status is 'scheduled' */
  publish_at: Timestamp | null;
  /** the media run holding the post while 'processing' (domain/processing/runs.ts), and its last heartbeat */
  processing_run: string | null;
  processing_heartbeat_at: Timestamp | null;
  /** the files that run is writing (a dead run's are deleted by the next) */
  processing_keys: ColumnType<string[], string[] | undefined, string[]>;
  /** pay-per-view (migrations/20261128_0100_post_unlocks.ts): the price in cents, and who must pay it; both null or both set */
  unlock_price_cents: number | null;
  unlock_mode: UnlockMode | null;
  /** pinned to the top of the creator's profile (at most 3) */
  pinned_at: Timestamp | null;
}

/** 'everyone': subscribers pay too; 'non_subscribers': the creator's active subscribers see it free */
export type UnlockMode = 'everyone' | 'non_subscribers';

/** Who bought which pay-per-view post (one row per fan and post; revoked by a full refund or a dispute). */
export interface PostUnlocksTable {
  id: Generated<string>;
  post_id: string;
  fan_id: string;
  payment_id: string;
  created_at: CreatedAt;
  revoked_at: Timestamp | null;
}

export interface MediaFilesTable {
  id: Generated<string>;
  post_id: string;
  variant: MediaVariant;
  storage_key: string;
  content_type: string;
  byte_size: BigIntColumn;
  width: number | null;
  height: number | null;
  duration_seconds: ColumnType<string | null, string | number | null, string | number | null>;
  created_at: CreatedAt;
  /** which of the post's files (0 the first; migrations/20261128_0500_post_files.ts) */
  position: Generated<number>;
}

/** A video file's HLS ladder (migrations/20261206_0700_video_ladders.ts; shape: common/ladder.ts). */
export interface VideoLaddersTable {
  post_id: string;
  position: Generated<number>;
  renditions: ColumnType<LadderRendition[], string, string>;
  thumbnails: ColumnType<LadderThumbnails | null, string | null, string | null>;
  storage_keys: string[];
  created_at: CreatedAt;
}

/** A viewer handed a marked playlist of a post: a trace's candidate (migrations/20261207_0100_forensic_traces.ts). */
export interface ForensicIssuesTable {
  post_id: string;
  viewer_id: string;
  first_at: CreatedAt;
}

/** A trace of a suspected leak, and the log of it (migrations/20261207_0100_forensic_traces.ts). */
export interface LeakTracesTable {
  id: Generated<string>;
  post_id: string;
  position: Generated<number>;
  requested_by: string | null;
  file_sha256: string;
  file_bytes: ColumnType<string, number | string, number | string>;
  leak_key: string | null;
  status: ColumnType<LeakTraceStatus, LeakTraceStatus | undefined, LeakTraceStatus>;
  /** a TraceVerdict (domain/forensics/verdict.ts) */
  verdict: ColumnType<{ kind: string } | null, string | null | undefined, string | null>;
  confidence: number | null;
  identified_user_id: string | null;
  created_at: CreatedAt;
  finished_at: Date | null;
}

/** One file of a post of several, with its own processing state (migrations/20261128_0500_post_files.ts). */
export interface PostFilesTable {
  post_id: string;
  position: number;
  media_kind: MediaKind;
  original_filename: string;
  status: ColumnType<'processing' | 'ready' | 'failed', 'processing' | 'ready' | 'failed' | undefined, 'processing' | 'ready' | 'failed'>;
  failure_reason: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A finished tus upload and the post it became (migrations/20261121_0001_uploads.ts). */
export interface UploadsTable {
  /** the tus upload id */
  id: string;
  user_id: string;
  /** null once the post was deleted */
  post_id: string | null;
  filename: string;
  byte_size: BigIntColumn;
  created_at: CreatedAt;
  /** the uploads of one post of several files share it; the post is made when the last arrives */
  upload_group: string | null;
  group_position: number | null;
  group_size: number | null;
  /** where a group's bytes wait until the post is made */
  source_key: string | null;
}

export interface PostLikesTable {
  post_id: string;
  user_id: string;
  created_at: CreatedAt;
}

export interface CommentsTable {
  id: Generated<string>;
  post_id: string;
  user_id: string;
  parent_id: string | null;
  comment_text: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface BookmarksTable {
  user_id: string;
  post_id: string;
  created_at: CreatedAt;
}

export interface SubscriptionTiersTable {
  id: Generated<string>;
  /** null for the platform's own Premium upgrade tier */
  creator_id: string | null;
  name: string;
  description: string | null;
  price_cents: Cents;
  payment_interval: PaymentInterval;
  discount_percentage: number | null;
  /** set instead of deleting a tier someone subscribed to: hidden from new fans (migrations/20261125_0001_billing.ts) */
  archived_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SubscriptionsTable {
  id: Generated<string>;
  subscriber_id: string;
  tier_id: string;
  status: SubscriptionStatus;
  current_period_start: Timestamp;
  current_period_end: Timestamp;
  /** cancelled by the fan: access runs to current_period_end, then the subscription ends */
  cancel_at_period_end: Generated<boolean>;
  /** the last renewal charge failed at this time; access lasts until grace_until */
  past_due_since: Timestamp | null;
  grace_until: Timestamp | null;
  /** the tier the subscription moves to at its next renewal (a tier change) */
  next_tier_id: string | null;
  provider: Generated<string>;
  provider_subscription_id: string | null;
  /** the period end the renewal reminder was sent for */
  reminded_period_end: Timestamp | null;
  /** the price the fan agreed to per period: renewals charge at most this (docs/payments.md) */
  price_cents: Cents;
  /** the price agreed for next_tier_id when the fan asked for the change */
  next_price_cents: Cents | null;
  /** the creator's profile turned private or hidden: set to end at its period end, the fan told */
  creator_unavailable_at: Timestamp | null;
  /** a free trial's first period ends here (= its first current_period_end); null for a paid start (migrations/20261128_0300_trials.ts) */
  trial_ends_at: Timestamp | null;
  /** bought as a bundle of 3, 6 or 12 periods: price and period are the bundle's, renewed as one (migrations/20261129_0100_tier_bundles.ts) */
  bundle_periods: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A tier sold for 3, 6 or 12 periods at once at `percent` off (migrations/20261129_0100_tier_bundles.ts). */
export interface TierBundlesTable {
  tier_id: string;
  periods: number;
  percent: number;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A creator's free-trial link (issue 27 item 5): N days of a tier free, at most max_claims fans, until expires_at. */
export interface TrialLinksTable {
  id: Generated<string>;
  creator_id: string;
  tier_id: string;
  code: string;
  days: number;
  max_claims: number;
  claims: Generated<number>;
  expires_at: Timestamp;
  disabled_at: Timestamp | null;
  created_at: CreatedAt;
}

/** N% off the first period for new fans or expired subscribers, from starts_at to ends_at (migrations/20261128_0301_offers.ts). */
export interface OffersTable {
  id: Generated<string>;
  creator_id: string;
  /** null: every tier of the creator */
  tier_id: string | null;
  audience: 'new' | 'expired';
  percent: number;
  starts_at: Timestamp;
  ends_at: Timestamp;
  disabled_at: Timestamp | null;
  created_at: CreatedAt;
}

/** One trial per (creator, fan), whichever link. */
export interface TrialClaimsTable {
  id: Generated<string>;
  trial_link_id: string;
  creator_id: string;
  fan_id: string;
  subscription_id: string | null;
  created_at: CreatedAt;
}

/** A billing-maintenance step threw for the subscription: not tried for it again before retry_at. */
export interface SubscriptionBillingRetriesTable {
  subscription_id: string;
  step: string;
  failures: Generated<number>;
  retry_at: Timestamp;
}

export interface SubscribersTable {
  id: Generated<string>;
  creator_id: string;
  subscriber_id: string;
  tier_id: string;
  status: SubscriptionStatus;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface PaymentsTable {
  id: Generated<string>;
  /** null once the payer's account is deleted (the creator's earnings stay) */
  user_id: string | null;
  /** null once the tier (its creator) is deleted (the fan's ledger stays, with `description`) */
  tier_id: string | null;
  creator_id: string | null;
  subscription_id: string | null;
  /** 'creator — tier' at the time of the charge */
  description: Generated<string>;
  idempotency_key: string | null;
  /** signed: a refund or dispute is negative */
  amount_cents: Cents;
  currency: Generated<string>;
  provider: string;
  provider_ref: string | null;
  status: 'succeeded' | 'failed' | 'refunded';
  /** a charge, or a reversal of one in a row of its own (refund and dispute negative, dispute_won positive) */
  kind: Generated<PaymentKind>;
  /** a reversal's charge */
  reverses_payment_id: string | null;
  /** a key the system made (renewal, reversal, duplicate checkout); clients' keys are in idempotency_key */
  system_key: string | null;
  /** what a charge bought: a subscription period, or a tip (which buys nothing) */
  purpose: Generated<PaymentPurpose>;
  /** a tip's optional note to the creator (at most 200 characters) */
  tip_message: string | null;
  created_at: CreatedAt;
  /** the pay-per-view message a 'message_unlock' charge opened (migrations/20261128_0200_message_prices.ts) */
  message_id: string | null;
  /** a charge that took money: its receipt's number (migration 20261203_0101 assigns it, once); null for reversals and failed charges */
  receipt_number: Generated<string | null>;
}

export type PaymentPurpose = 'subscription' | 'tip' | 'post_unlock' | 'message_unlock';

export type PaymentKind = 'charge' | 'refund' | 'dispute' | 'dispute_won';

/** Where money is (docs/payments.md, "The ledger"): the chart of accounts. */
export type LedgerAccountKind =
  | 'provider_cash' | 'platform_revenue' | 'losses' | 'refunds_owed' | 'payouts_in_transit' | 'creator_pending' | 'creator_available'
  | 'disputes_open' | 'dispute_reserve';

/** What moved money: each journal's kind (docs/payments.md, "The ledger", says what each posts). */
export type JournalKind =
  | 'charge' | 'hold_released' | 'refund_decided' | 'refund_settled' | 'refund_not_made' | 'refund'
  | 'dispute_opened' | 'dispute_won' | 'dispute_lost' | 'payout_requested' | 'payout_paid' | 'payout_failed' | 'loss_written_off';

/** One account of the double-entry ledger (issue 45, domain/ledger). */
export interface LedgerAccountsTable {
  id: Generated<string>;
  /** the platform's accounts: 'platform_revenue', 'provider_cash:stripe' ...; a creator's: null (found by owner) */
  code: string | null;
  kind: LedgerAccountKind;
  /** a creator's accounts: the creator (null once the account is deleted) */
  owner_id: string | null;
  /** a provider_cash account: the provider */
  provider: string | null;
  currency: Generated<string>;
  created_at: CreatedAt;
}

/** One money event: its lines sum to zero (a deferred trigger refuses one that does not); never changed. */
export interface JournalEntriesTable {
  id: Generated<string>;
  kind: JournalKind;
  /** the event's own key: a journal is posted once */
  key: string;
  /** why a loss was booked */
  reason: string | null;
  payment_id: string | null;
  payout_id: string | null;
  refund_request_id: string | null;
  occurred_at: Timestamp;
  created_at: CreatedAt;
}

export interface JournalLinesTable {
  id: Generated<string>;
  journal_id: string;
  account_id: string;
  currency: string;
  /** the journal's kind, kept on the line for the sums of the Earnings screen */
  kind: JournalKind;
  /** signed whole cents, debit positive */
  amount_cents: Cents;
  /** a creator's pending line: when it counts as available */
  available_at: Timestamp | null;
  occurred_at: Timestamp;
}

/** Each creator account's lines summed by UTC month and journal kind, kept by a trigger on journal_lines (migration 20261206_0600). */
export interface LedgerMonthTotalsTable {
  account_id: string;
  /** the month's first day */
  month: ColumnType<string, string, string>;
  kind: JournalKind;
  cents: Cents;
}

/** What a daily reconciliation found that does not match (issue 45, domain/earnings/reconciliation.ts). */
export interface ReconciliationMismatchesTable {
  id: Generated<string>;
  day: ColumnType<string, string, string>;
  provider: string;
  /** 'payment_not_in_ledger', 'payout_not_in_ledger', 'ledger_without_record', 'provider_total:<kind>' */
  kind: string;
  /** the payment or payout, the journal, or the kind of money the provider's total is of */
  ref: string;
  ledger_cents: Cents;
  provider_cents: Cents;
  found_at: CreatedAt;
}

export type PayoutAccountStatus = 'details_needed' | 'pending' | 'enabled';

/** Where a creator is paid: a Stripe Connect Express account, or the built-in test account. */
export interface PayoutAccountsTable {
  user_id: string;
  provider: string;
  provider_account_id: string;
  status: PayoutAccountStatus;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A fan's card on file at the provider (migrations/20261129_0200_saved_cards.ts): never the number, only what names it. */
export interface PaymentCardsTable {
  user_id: string;
  provider: string;
  customer_id: string;
  /** null once the fan removed the card (the customer stays for the next one) */
  payment_method_id: string | null;
  brand: string | null;
  last4: string | null;
  updated_at: UpdatedAt;
}

/** A test card of the built-in provider's wallet (issue 47 item 6): never charged, names nothing at a provider. */
export interface TestCardsTable {
  id: Generated<string>;
  user_id: string;
  brand: 'visa' | 'mastercard' | 'amex';
  last4: string;
  is_default: Generated<boolean>;
  created_at: CreatedAt;
}

/** A confirmed one-off purchase waiting for the provider's webhook (domain/billing/one-off.ts). */
export interface PendingChargesTable {
  id: Generated<string>;
  user_id: string;
  idempotency_key: string;
  purpose: Exclude<PaymentPurpose, 'subscription'>;
  creator_id: string;
  post_id: string | null;
  message_id: string | null;
  tip_message: string | null;
  amount_cents: Cents;
  description: string;
  provider: string;
  /** the ledger's charge, once the money is in */
  payment_id: string | null;
  created_at: CreatedAt;
}

export type PayoutStatus = 'pending' | 'paid' | 'failed';
export type PayoutTrigger = 'scheduled' | 'request' | 'deletion';

/** One payout, one transfer (domain/earnings/payouts.ts). */
export interface PayoutsTable {
  id: Generated<string>;
  creator_id: string | null;
  amount_cents: Cents;
  status: Generated<PayoutStatus>;
  trigger: PayoutTrigger;
  /** the payout's key (a Withdraw's request, or the week of a scheduled one): one payout per key */
  key: string;
  provider: string;
  provider_account_id: string;
  transfer_ref: string | null;
  failure_reason: string | null;
  settled_at: Timestamp | null;
  created_at: CreatedAt;
}

/** Work that must happen, written with the change that needs it and relayed to BullMQ (core/outbox). */
export interface OutboxTable {
  id: Generated<string>;
  queue: string;
  name: string;
  job_id: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  options: ColumnType<Record<string, unknown>, string | undefined, string>;
  available_at: ColumnType<Date, Date | undefined, Date>;
  relays: Generated<number>;
  relayed_at: Date | null;
  done_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
  created_at: CreatedAt;
}

/** An admin's refund: asked of the provider by the `provider-refund` job, then recorded as a reversal (docs/payments.md). */
export interface RefundRequestsTable {
  id: Generated<string>;
  payment_id: string;
  /** positive; counts against what is left to refund until completed */
  amount_cents: Cents;
  /** the reversal row's system key and the provider's idempotency key */
  reversal_key: string;
  requested_by: string | null;
  completed_at: Date | null;
  created_at: CreatedAt;
}

/** Provider webhook events already applied (each once). */
export interface BillingEventsTable {
  provider: string;
  event_id: string;
  type: string;
  received_at: CreatedAt;
}

export interface MessagesTable {
  id: Generated<string>;
  sender_id: string;
  recipient_id: string;
  content: string | null;
  media_key: string | null;
  media_type: string | null;
  reply_to_id: string | null;
  created_at: CreatedAt;
  edited_at: Timestamp | null;
  read_at: Timestamp | null;
  /** the sender's key for this message: a repeated send returns it (migrations/20261125_0002_messaging.ts) */
  client_id: string | null;
  attachment_id: string | null;
  /** the file opens for the recipient only once bought (migrations/20261128_0200_message_prices.ts) */
  price_cents: Cents | null;
  /** the message to many this is one copy of */
  mass_message_id: string | null;
}

export type MassMessageAudience = 'active' | 'tier' | 'expired' | 'buyers';
export type MassMessageStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** One creator's message to an audience, delivered in batches by the `mass-messages` queue (issue 27 item 4). */
export interface MassMessagesTable {
  id: Generated<string>;
  creator_id: string;
  audience: MassMessageAudience;
  tier_id: string | null;
  content: string | null;
  attachment_id: string | null;
  price_cents: Cents | null;
  client_id: string;
  /** 'failed': its chain's outbox row failed for good (worker/jobs/stalled-mass-messages.ts) */
  status: Generated<MassMessageStatus>;
  /** the last recipient id delivered (the batches go by recipient id) */
  cursor: string | null;
  recipients_total: Generated<number>;
  created_at: CreatedAt;
  finished_at: Timestamp | null;
  /** when a batch last committed (or the row was made): the keeper resumes unfinished ones idle too long */
  progressed_at: Generated<Timestamp>;
  /** with 'failed': the audience's size when it stopped (delivered + those left) */
  stopped_total: number | null;
}

/** A chat file from upload to its privately stored, processed copy (issue 12). */
export interface MessageAttachmentsTable {
  id: Generated<string>;
  owner_id: string;
  kind: MediaKind;
  status: ColumnType<'processing' | 'ready' | 'failed', 'processing' | 'ready' | 'failed' | undefined, 'processing' | 'ready' | 'failed'>;
  original_filename: string;
  byte_size: BigIntColumn;
  source_key: string | null;
  storage_key: string | null;
  content_type: string | null;
  width: number | null;
  height: number | null;
  duration_seconds: ColumnType<string | null, string | number | null, string | number | null>;
  failure_reason: string | null;
  /** the media run holding the attachment while 'processing' (domain/processing/runs.ts), and its last heartbeat */
  processing_run: string | null;
  processing_heartbeat_at: Timestamp | null;
  /** the files that run is writing (a dead run's are deleted by the next) */
  processing_keys: ColumnType<string[], string[] | undefined, string[]>;
  /** the vault object this attachment is a copy of (migrations/20261129_0400_vault_message_files.ts); null when uploaded */
  vault_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** a chat video's HLS ladder (migrations/20261206_0900_attachment_ladders.ts; shape: common/ladder.ts), null until made */
  ladder: ColumnType<{ renditions: LadderRendition[]; thumbnails: LadderThumbnails | null } | null, string | null | undefined, string | null>;
  /** every stored object of that ladder (deleted with the attachment) */
  ladder_keys: ColumnType<string[], string[] | undefined, string[]>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** One row per user per partner: the chat list, newest conversation first. */
export interface ConversationsTable {
  user_id: string;
  partner_id: string;
  last_message_id: string | null;
  last_message_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface UserBlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: CreatedAt;
}

export interface MessageReportsTable {
  id: Generated<string>;
  message_id: string | null;
  reporter_id: string;
  sender_id: string | null;
  content: string | null;
  reason: string;
  status: ColumnType<'open' | 'closed', 'open' | 'closed' | undefined, 'open' | 'closed'>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  closed_at: Timestamp | null;
  closed_by: string | null;
  /** the reported file, copied into storage the report owns (issue 23 §8) */
  evidence_key: string | null;
  evidence_type: string | null;
  evidence_kind: string | null;
  evidence_name: string | null;
  resolution: ReportResolution | null;
}

export type ReportResolution = 'dismissed' | 'content-removed' | 'account-suspended';

/** Every opening of a report by an admin. */
export interface ReportViewsTable {
  id: Generated<string>;
  report_id: string;
  admin_id: string | null;
  created_at: CreatedAt;
}

export interface MessageReactionsTable {
  id: Generated<string>;
  message_id: string;
  user_id: string;
  emoji: string;
  created_at: CreatedAt;
}

/** Issue 28: one thing a user is told about (domain/notifications/notify.ts writes them). */
export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  kind: string;
  actor_id: string | null;
  actor_count: Generated<number>;
  subject_type: string;
  subject_id: string | null;
  group_key: string | null;
  /** the in-app channel: false keeps the row out of the centre (it still carries its push) */
  shown: Generated<boolean>;
  read_at: Date | null;
  created_at: CreatedAt;
  /** the latest event of the row (a grouped row moves up with each); the centre's order */
  last_at: Generated<Date>;
}

/** A user's kinds × channels that differ from the defaults (common/notifications.ts). */
export interface NotificationPreferencesTable {
  user_id: string;
  kind: string;
  in_app: boolean;
  email: boolean;
  push: boolean;
  updated_at: UpdatedAt;
}

/** One browser's Push API subscription. */
export interface PushSubscriptionsTable {
  id: Generated<string>;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: CreatedAt;
}

/** A fan-out batch's push to one browser, and whether it went (migrations/20261206_0800_push_sends.ts). */
export interface PushSendsTable {
  notification_id: string;
  subscription_id: string;
  batch: string;
  sent_at: Date | null;
  created_at: CreatedAt;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  totp_credentials: TotpCredentialsTable;
  recovery_codes: RecoveryCodesTable;
  data_exports: DataExportsTable;
  storage_deletions: StorageDeletionsTable;
  email_tokens: EmailTokensTable;
  profiles: ProfilesTable;
  privacy_settings: PrivacySettingsTable;
  notification_settings: NotificationSettingsTable;
  verification_status: VerificationStatusTable;
  media_settings: MediaSettingsTable;
  content_settings: ContentSettingsTable;
  posts: PostsTable;
  post_unlocks: PostUnlocksTable;
  media_files: MediaFilesTable;
  video_ladders: VideoLaddersTable;
  picture_mark_issues: PictureMarkIssuesTable;
  forensic_issues: ForensicIssuesTable;
  leak_traces: LeakTracesTable;
  post_files: PostFilesTable;
  uploads: UploadsTable;
  post_likes: PostLikesTable;
  comments: CommentsTable;
  bookmarks: BookmarksTable;
  subscription_tiers: SubscriptionTiersTable;
  subscriptions: SubscriptionsTable;
  subscribers: SubscribersTable;
  trial_links: TrialLinksTable;
  trial_claims: TrialClaimsTable;
  offers: OffersTable;
  tier_bundles: TierBundlesTable;
  subscription_billing_retries: SubscriptionBillingRetriesTable;
  payments: PaymentsTable;
  outbox: OutboxTable;
  billing_events: BillingEventsTable;
  refund_requests: RefundRequestsTable;
  ledger_accounts: LedgerAccountsTable;
  journal_entries: JournalEntriesTable;
  journal_lines: JournalLinesTable;
  ledger_month_totals: LedgerMonthTotalsTable;
  reconciliation_mismatches: ReconciliationMismatchesTable;
  payout_accounts: PayoutAccountsTable;
  payment_cards: PaymentCardsTable;
  test_cards: TestCardsTable;
  pending_charges: PendingChargesTable;
  payouts: PayoutsTable;
  messages: MessagesTable;
  mass_messages: MassMessagesTable;
  message_reactions: MessageReactionsTable;
  message_attachments: MessageAttachmentsTable;
  conversations: ConversationsTable;
  user_blocks: UserBlocksTable;
  message_reports: MessageReportsTable;
  report_views: ReportViewsTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  push_subscriptions: PushSubscriptionsTable;
  push_sends: PushSendsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Profile = Selectable<ProfilesTable>;
export type ProfileUpdate = Updateable<ProfilesTable>;
export type Post = Selectable<PostsTable>;
export type Session = Selectable<SessionsTable>;

/**
 * Every column of every table, checked against the interfaces above at compile time
 * (a missing or extra name fails `npm run typecheck`) and against information_schema
 * by tests/integration/schema.test.ts, so the type and the migrations cannot drift.
 */
type ExactColumns<T> = { [K in keyof T]-?: ReadonlyArray<keyof T[K] & string> };
type AssertAllListed<T, L extends ExactColumns<T>> = {
  [K in keyof T]: Exclude<keyof T[K], L[K][number]> extends never ? true : ['missing columns', K, Exclude<keyof T[K], L[K][number]>];
};
function columns<const L extends ExactColumns<Database>>(list: L & (AssertAllListed<Database, L>[keyof Database] extends true ? unknown : AssertAllListed<Database, L>)): L {
  return list;
}

export const databaseColumns = columns({
  users: ['id', 'email', 'password_hash', 'email_verified_at', 'role', 'created_at', 'updated_at', 'suspended_at'],
  sessions: ['id', 'user_id', 'expires_at', 'created_at', 'user_agent', 'ip', 'public_id', 'last_seen_at'],
  totp_credentials: ['user_id', 'secret', 'enabled_at', 'last_used_step', 'created_at'],
  recovery_codes: ['id', 'user_id', 'code_hash', 'used_at', 'created_at'],
  data_exports: ['id', 'user_id', 'status', 'storage_key', 'byte_size', 'failure_reason', 'runs', 'created_at', 'ready_at', 'expires_at'],
  storage_deletions: ['storage_key', 'batch', 'created_at'],
  email_tokens: ['id', 'user_id', 'purpose', 'expires_at', 'used_at', 'created_at'],
  profiles: [
    'id', 'username', 'display_name', 'avatar_url', 'bio', 'categories', 'is_verified', 'is_premium',
    'is_creator', 'date_of_birth', 'custom_links', 'social_links', 'upgrade_card_dismissed', 'created_at', 'updated_at',
    'avatar_pending_id', 'avatar_failure',
  ],
  privacy_settings: ['user_id', 'profile_visibility', 'visibility_before_hidden', 'show_online_status', 'allow_friend_requests', 'updated_at'],
  notification_settings: ['user_id', 'email_notifications', 'push_notifications', 'marketing_emails', 'updated_at'],
  verification_status: ['user_id', 'is_email_verified', 'is_phone_verified', 'is_identity_verified', 'identity_test_verified_at', 'updated_at'],
  media_settings: ['creator_id', 'watermark_enabled', 'watermark_text', 'watermark_position', 'updated_at', 'mark_paid_pictures'],
  content_settings: ['user_id', 'default_nsfw', 'default_paid', 'comments_open', 'updated_at'],
  posts: [
    'id', 'creator_id', 'title', 'post_text', 'hashtags', 'is_premium', 'is_nsfw', 'status', 'target_status',
    'media_kind', 'original_filename', 'failure_reason', 'optimistic_id', 'search', 'created_at', 'updated_at', 'published_at',
    'processing_run', 'processing_heartbeat_at', 'processing_keys', 'publish_at', 'unlock_price_cents', 'unlock_mode', 'pinned_at',
  ],
  post_unlocks: ['id', 'post_id', 'fan_id', 'payment_id', 'created_at', 'revoked_at'],
  media_files: [
    'id', 'post_id', 'variant', 'storage_key', 'content_type', 'byte_size', 'width', 'height', 'duration_seconds', 'created_at',
    'position',
  ],
  video_ladders: ['post_id', 'position', 'renditions', 'thumbnails', 'storage_keys', 'created_at'],
  picture_mark_issues: ['post_id', 'position', 'viewer_id', 'seed', 'label', 'first_at'],
  forensic_issues: ['post_id', 'viewer_id', 'first_at'],
  leak_traces: [
    'id', 'post_id', 'position', 'requested_by', 'file_sha256', 'file_bytes', 'leak_key', 'status', 'verdict', 'confidence', 'identified_user_id', 'created_at', 'finished_at',
  ],
  post_files: ['post_id', 'position', 'media_kind', 'original_filename', 'status', 'failure_reason', 'created_at', 'updated_at'],
  uploads: ['id', 'user_id', 'post_id', 'filename', 'byte_size', 'created_at', 'upload_group', 'group_position', 'group_size', 'source_key'],
  post_likes: ['post_id', 'user_id', 'created_at'],
  comments: ['id', 'post_id', 'user_id', 'parent_id', 'comment_text', 'created_at', 'updated_at'],
  bookmarks: ['user_id', 'post_id', 'created_at'],
  subscription_tiers: [
    'id', 'creator_id', 'name', 'description', 'price_cents', 'payment_interval', 'discount_percentage', 'archived_at', 'created_at', 'updated_at',
  ],
  subscriptions: [
    'id', 'subscriber_id', 'tier_id', 'status', 'current_period_start', 'current_period_end', 'cancel_at_period_end',
    'past_due_since', 'grace_until', 'next_tier_id', 'provider', 'provider_subscription_id', 'reminded_period_end', 'price_cents', 'next_price_cents',
    'creator_unavailable_at', 'created_at', 'updated_at', 'trial_ends_at', 'bundle_periods',
  ],
  tier_bundles: ['tier_id', 'periods', 'percent', 'created_at', 'updated_at'],
  trial_links: ['id', 'creator_id', 'tier_id', 'code', 'days', 'max_claims', 'claims', 'expires_at', 'disabled_at', 'created_at'],
  trial_claims: ['id', 'trial_link_id', 'creator_id', 'fan_id', 'subscription_id', 'created_at'],
  offers: ['id', 'creator_id', 'tier_id', 'audience', 'percent', 'starts_at', 'ends_at', 'disabled_at', 'created_at'],
  subscribers: ['id', 'creator_id', 'subscriber_id', 'tier_id', 'status', 'created_at', 'updated_at'],
  subscription_billing_retries: ['subscription_id', 'step', 'failures', 'retry_at'],
  payments: [
    'id', 'user_id', 'tier_id', 'creator_id', 'subscription_id', 'description', 'idempotency_key', 'amount_cents', 'currency',
    'provider', 'provider_ref', 'status', 'kind', 'reverses_payment_id', 'system_key', 'created_at', 'purpose', 'tip_message',
    'message_id', 'receipt_number',
  ],
  outbox: [
    'id', 'queue', 'name', 'job_id', 'data', 'options', 'available_at', 'relays', 'relayed_at', 'done_at', 'failed_at', 'last_error', 'created_at',
  ],
  billing_events: ['provider', 'event_id', 'type', 'received_at'],
  refund_requests: ['id', 'payment_id', 'amount_cents', 'reversal_key', 'requested_by', 'completed_at', 'created_at'],
  ledger_accounts: ['id', 'code', 'kind', 'owner_id', 'provider', 'currency', 'created_at'],
  journal_entries: ['id', 'kind', 'key', 'reason', 'payment_id', 'payout_id', 'refund_request_id', 'occurred_at', 'created_at'],
  journal_lines: ['id', 'journal_id', 'account_id', 'currency', 'kind', 'amount_cents', 'available_at', 'occurred_at'],
  ledger_month_totals: ['account_id', 'month', 'kind', 'cents'],
  reconciliation_mismatches: ['id', 'day', 'provider', 'kind', 'ref', 'ledger_cents', 'provider_cents', 'found_at'],
  payout_accounts: ['user_id', 'provider', 'provider_account_id', 'status', 'created_at', 'updated_at'],
  payment_cards: ['user_id', 'provider', 'customer_id', 'payment_method_id', 'brand', 'last4', 'updated_at'],
  test_cards: ['id', 'user_id', 'brand', 'last4', 'is_default', 'created_at'],
  pending_charges: [
    'id', 'user_id', 'idempotency_key', 'purpose', 'creator_id', 'post_id', 'message_id', 'tip_message', 'amount_cents', 'description', 'provider',
    'payment_id', 'created_at',
  ],
  payouts: [
    'id', 'creator_id', 'amount_cents', 'status', 'trigger', 'key', 'provider', 'provider_account_id', 'transfer_ref', 'failure_reason',
    'settled_at', 'created_at',
  ],
  messages: [
    'id', 'sender_id', 'recipient_id', 'content', 'media_key', 'media_type', 'reply_to_id', 'created_at', 'edited_at', 'read_at',
    'client_id', 'attachment_id', 'price_cents', 'mass_message_id',
  ],
  mass_messages: [
    'id', 'creator_id', 'audience', 'tier_id', 'content', 'attachment_id', 'price_cents', 'client_id', 'status', 'cursor', 'recipients_total',
    'created_at', 'finished_at', 'progressed_at', 'stopped_total',
  ],
  message_reactions: ['id', 'message_id', 'user_id', 'emoji', 'created_at'],
  message_attachments: [
    'id', 'owner_id', 'kind', 'status', 'original_filename', 'byte_size', 'source_key', 'storage_key', 'content_type',
    'width', 'height', 'duration_seconds', 'failure_reason', 'processing_run', 'processing_heartbeat_at', 'processing_keys', 'vault_key', 'ladder', 'ladder_keys',
    'created_at', 'updated_at',
  ],
  conversations: ['user_id', 'partner_id', 'last_message_id', 'last_message_at'],
  user_blocks: ['blocker_id', 'blocked_id', 'created_at'],
  message_reports: [
    'id', 'message_id', 'reporter_id', 'sender_id', 'content', 'reason', 'status', 'created_at', 'updated_at', 'closed_at', 'closed_by',
    'evidence_key', 'evidence_type', 'evidence_kind', 'evidence_name', 'resolution',
  ],
  report_views: ['id', 'report_id', 'admin_id', 'created_at'],
  notifications: [
    'id', 'user_id', 'kind', 'actor_id', 'actor_count', 'subject_type', 'subject_id', 'group_key', 'shown', 'read_at', 'created_at', 'last_at',
  ],
  notification_preferences: ['user_id', 'kind', 'in_app', 'email', 'push', 'updated_at'],
  push_subscriptions: ['id', 'user_id', 'endpoint', 'p256dh', 'auth', 'created_at'],
  push_sends: ['notification_id', 'subscription_id', 'batch', 'sent_at', 'created_at'],
});
