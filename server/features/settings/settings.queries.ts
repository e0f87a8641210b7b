import { sql } from 'kysely';
import type { DB } from '../../../core/db/kysely';
import type { PrivacyVisibilityChoice } from './settings.service';

/** What each screen reads, and what each save returns (the same row). */
const PERSONAL_INFO_COLUMNS = ['username', 'display_name', 'bio', 'categories', 'avatar_url', 'avatar_pending_id', 'avatar_failure'] as const;
const PRIVACY_COLUMNS = ['profile_visibility', 'show_online_status', 'allow_friend_requests'] as const;
const NOTIFICATION_COLUMNS = ['email_notifications', 'push_notifications', 'marketing_emails'] as const;
const CONTENT_COLUMNS = ['default_nsfw', 'default_paid', 'comments_open'] as const;

/** One query for the Personal Information form. */
export function findPersonalInfo(db: DB, userId: string) {
  return db
    .selectFrom('profiles')
    .select(PERSONAL_INFO_COLUMNS)
    .where('id', '=', userId)
    .executeTakeFirst();
}

/**
 * Writes the caller's profile fields. The username's uniqueness is the unique index on
 * lower(username) (profiles_username_lower_key): of two users taking one name at once, the
 * second statement fails with 23505 and the service turns it into the field error.
 */
export function updatePersonalInfo(
  db: DB,
  userId: string,
  values: { username: string; display_name: string; bio: string | null; categories: string[] },
) {
  return db
    .updateTable('profiles')
    .set({ ...values, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .returning(PERSONAL_INFO_COLUMNS)
    .executeTakeFirst();
}

/** The spec's 'missing row is created with defaults': insert if absent, then read (one round trip each). */
export async function ensurePrivacySettings(db: DB, userId: string) {
  await db.insertInto('privacy_settings').values({ user_id: userId }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
  return db
    .selectFrom('privacy_settings')
    .select(PRIVACY_COLUMNS)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
}

/**
 * Upserts the privacy settings. A hidden account (Hide Account, /settings/account/management)
 * stays hidden: the privacy screen does not offer 'hidden' and cannot undo it by the back door;
 * the visibility chosen meanwhile is the one showing the account returns to.
 */
export function upsertPrivacySettings(
  db: DB,
  userId: string,
  values: { profile_visibility: PrivacyVisibilityChoice; show_online_status: boolean; allow_friend_requests: boolean },
) {
  return db
    .insertInto('privacy_settings')
    .values({ user_id: userId, ...values })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        profile_visibility: sql`case when privacy_settings.profile_visibility = 'hidden' then 'hidden' else excluded.profile_visibility end`,
        visibility_before_hidden: sql`case when privacy_settings.profile_visibility = 'hidden' then excluded.profile_visibility else null end`,
        show_online_status: values.show_online_status,
        allow_friend_requests: values.allow_friend_requests,
        updated_at: sql<Date>`now()`,
      }),
    )
    .returning(PRIVACY_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function ensureNotificationSettings(db: DB, userId: string) {
  await db.insertInto('notification_settings').values({ user_id: userId }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
  return db
    .selectFrom('notification_settings')
    .select(NOTIFICATION_COLUMNS)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
}

export function upsertNotificationSettings(
  db: DB,
  userId: string,
  values: { email_notifications: boolean; push_notifications: boolean; marketing_emails: boolean },
) {
  return db
    .insertInto('notification_settings')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: sql<Date>`now()` }))
    .returning(NOTIFICATION_COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * The stored verification flags, read only (the spec's screen upserted them all false, which
 * would reset them: we never write here). No row: nothing verified.
 */
export function findVerificationStatus(db: DB, userId: string) {
  return db
    .selectFrom('verification_status')
    .select(['is_email_verified', 'is_phone_verified', 'is_identity_verified'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function findContentSettings(db: DB, userId: string) {
  return db
    .selectFrom('content_settings')
    .select(CONTENT_COLUMNS)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function upsertContentSettings(db: DB, userId: string, values: { default_nsfw: boolean; default_paid: boolean; comments_open: boolean }) {
  return db
    .insertInto('content_settings')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: sql<Date>`now()` }))
    .returning(CONTENT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Marks a new avatar upload as the one the worker is to finish (a newer one supersedes it). */
export function setAvatarPending(db: DB, userId: string, uploadId: string) {
  return db
    .updateTable('profiles')
    .set({ avatar_pending_id: uploadId, avatar_failure: null, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .executeTakeFirst();
}
