import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
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
/** numeric(10,2): pg returns it as a string so no precision is lost. */
type Money = ColumnType<string, string | number, string | number>;
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
}

export interface SessionsTable {
  /** hex SHA-256 of the session token; the token itself is never stored. */
  id: string;
  user_id: string;
  expires_at: Timestamp;
  created_at: CreatedAt;
  user_agent: string | null;
  ip: string | null;
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
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface PrivacySettingsTable {
  user_id: string;
  profile_visibility: ColumnType<ProfileVisibility, ProfileVisibility | undefined, ProfileVisibility>;
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
  updated_at: UpdatedAt;
}

export interface MediaSettingsTable {
  creator_id: string;
  watermark_enabled: Generated<boolean>;
  watermark_text: string | null;
  watermark_position: ColumnType<WatermarkPosition, WatermarkPosition | undefined, WatermarkPosition>;
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
  /** what the creator chose (draft or published) while the media is processing */
  target_status: ColumnType<'draft' | 'published', 'draft' | 'published', 'draft' | 'published'>;
  media_kind: MediaKind | null;
  original_filename: string | null;
  failure_reason: string | null;
  optimistic_id: string | null;
  /** generated tsvector over post_text and hashtags */
  search: ColumnType<string, never, never>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  published_at: Timestamp | null;
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
  price: Money;
  payment_interval: PaymentInterval;
  discount_percentage: number | null;
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
  created_at: CreatedAt;
  updated_at: UpdatedAt;
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
  user_id: string;
  tier_id: string;
  subscription_id: string | null;
  amount: Money;
  currency: Generated<string>;
  provider: string;
  provider_ref: string | null;
  status: 'succeeded' | 'failed' | 'refunded';
  created_at: CreatedAt;
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
}

export interface MessageReactionsTable {
  id: Generated<string>;
  message_id: string;
  user_id: string;
  emoji: string;
  created_at: CreatedAt;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  email_tokens: EmailTokensTable;
  profiles: ProfilesTable;
  privacy_settings: PrivacySettingsTable;
  notification_settings: NotificationSettingsTable;
  verification_status: VerificationStatusTable;
  media_settings: MediaSettingsTable;
  posts: PostsTable;
  media_files: MediaFilesTable;
  uploads: UploadsTable;
  post_likes: PostLikesTable;
  comments: CommentsTable;
  bookmarks: BookmarksTable;
  subscription_tiers: SubscriptionTiersTable;
  subscriptions: SubscriptionsTable;
  subscribers: SubscribersTable;
  payments: PaymentsTable;
  messages: MessagesTable;
  message_reactions: MessageReactionsTable;
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
  users: ['id', 'email', 'password_hash', 'email_verified_at', 'role', 'created_at', 'updated_at'],
  sessions: ['id', 'user_id', 'expires_at', 'created_at', 'user_agent', 'ip'],
  email_tokens: ['id', 'user_id', 'purpose', 'expires_at', 'used_at', 'created_at'],
  profiles: [
    'id', 'username', 'display_name', 'avatar_url', 'bio', 'categories', 'is_verified', 'is_premium',
    'is_creator', 'date_of_birth', 'custom_links', 'social_links', 'upgrade_card_dismissed', 'created_at', 'updated_at',
  ],
  privacy_settings: ['user_id', 'profile_visibility', 'show_online_status', 'allow_friend_requests', 'updated_at'],
  notification_settings: ['user_id', 'email_notifications', 'push_notifications', 'marketing_emails', 'updated_at'],
  verification_status: ['user_id', 'is_email_verified', 'is_phone_verified', 'is_identity_verified', 'updated_at'],
  media_settings: ['creator_id', 'watermark_enabled', 'watermark_text', 'watermark_position', 'updated_at'],
  posts: [
    'id', 'creator_id', 'title', 'post_text', 'hashtags', 'is_premium', 'is_nsfw', 'status', 'target_status',
    'media_kind', 'original_filename', 'failure_reason', 'optimistic_id', 'search', 'created_at', 'updated_at', 'published_at',
  ],
  media_files: [
    'id', 'post_id', 'variant', 'storage_key', 'content_type', 'byte_size', 'width', 'height', 'duration_seconds', 'created_at',
  ],
  uploads: ['id', 'user_id', 'post_id', 'filename', 'byte_size', 'created_at'],
  post_likes: ['post_id', 'user_id', 'created_at'],
  comments: ['id', 'post_id', 'user_id', 'parent_id', 'comment_text', 'created_at', 'updated_at'],
  bookmarks: ['user_id', 'post_id', 'created_at'],
  subscription_tiers: [
    'id', 'creator_id', 'name', 'description', 'price', 'payment_interval', 'discount_percentage', 'created_at', 'updated_at',
  ],
  subscriptions: [
    'id', 'subscriber_id', 'tier_id', 'status', 'current_period_start', 'current_period_end', 'created_at', 'updated_at',
  ],
  subscribers: ['id', 'creator_id', 'subscriber_id', 'tier_id', 'status', 'created_at', 'updated_at'],
  payments: ['id', 'user_id', 'tier_id', 'subscription_id', 'amount', 'currency', 'provider', 'provider_ref', 'status', 'created_at'],
  messages: [
    'id', 'sender_id', 'recipient_id', 'content', 'media_key', 'media_type', 'reply_to_id', 'created_at', 'edited_at', 'read_at',
  ],
  message_reactions: ['id', 'message_id', 'user_id', 'emoji', 'created_at'],
});
