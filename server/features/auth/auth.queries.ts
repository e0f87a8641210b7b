import type { Kysely } from 'kysely';
import type { EmailTokenPurpose } from '../../../common/enums';
import type { Database } from '../../../core/db/schema';
import { USER_DTO_COLUMNS } from '../../../domain/people/user-columns';

/** A pool or a transaction: every query here runs on either. */
type Db = Kysely<Database>;

export async function usernameExists(db: Db, username: string): Promise<boolean> {
  const row = await db.selectFrom('profiles').select('id').where('username', '=', username).executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(db: Db, values: { email: string; passwordHash: string }): Promise<string> {
  const row = await db
    .insertInto('users')
    .values({ email: values.email, password_hash: values.passwordHash, email_verified_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertProfile(
  db: Db,
  values: { id: string; username: string; displayName: string; dateOfBirth: string },
): Promise<void> {
  await db
    .insertInto('profiles')
    .values({
      id: values.id,
      username: values.username,
      display_name: values.displayName,
      date_of_birth: values.dateOfBirth,
      avatar_url: null,
      bio: null,
    })
    .execute();
}

export async function insertPrivacySettings(db: Db, userId: string): Promise<void> {
  await db.insertInto('privacy_settings').values({ user_id: userId }).execute();
}

export async function insertNotificationSettings(db: Db, userId: string): Promise<void> {
  await db.insertInto('notification_settings').values({ user_id: userId }).execute();
}

export async function insertVerificationStatus(db: Db, userId: string): Promise<void> {
  await db.insertInto('verification_status').values({ user_id: userId }).execute();
}

// Link tokens are made by the mail job (worker/mail/email-tokens.ts); the server checks and consumes them.

/** Whether a token of this purpose is unused and unexpired (a read: `consumeEmailToken` decides). */
export async function isUsableEmailToken(db: Db, tokenHash: string, purpose: EmailTokenPurpose, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('email_tokens')
    .select('id')
    .where('id', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Marks a token used if it is of this purpose, unused and unexpired, atomically (two clicks on the
 * same link cannot both pass); returns its user, or undefined.
 */
export async function consumeEmailToken(
  db: Db,
  tokenHash: string,
  purpose: EmailTokenPurpose,
  now: Date,
): Promise<string | undefined> {
  const row = await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('id', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/**
 * Whether the token, of this purpose, was used (it is never deleted on use, only when it expires)
 * and its account's address is confirmed: a confirmation link opened again.
 */
export async function isUsedTokenOfConfirmedUser(db: Db, tokenHash: string, purpose: EmailTokenPurpose): Promise<boolean> {
  const row = await db
    .selectFrom('email_tokens')
    .innerJoin('users', 'users.id', 'email_tokens.user_id')
    .select('email_tokens.id')
    .where('email_tokens.id', '=', tokenHash)
    .where('email_tokens.purpose', '=', purpose)
    .where('email_tokens.used_at', 'is not', null)
    .where('users.email_verified_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Retires the user's other outstanding tokens of a purpose (an older reset link dies with the reset). */
export async function retireEmailTokens(db: Db, userId: string, purpose: EmailTokenPurpose, now: Date): Promise<void> {
  await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** Sets email_verified_at once; a later confirmation keeps the first time. */
export async function markUserEmailVerified(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_verified_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('email_verified_at', 'is', null)
    .execute();
}

export async function markVerificationStatusEmail(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('verification_status')
    .set({ is_email_verified: true, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** Everything sign-in needs in one read: the hash to verify and the profile for the user DTO. */
export async function findSignInCandidate(db: Db, email: string) {
  return db
    .selectFrom('users')
    .innerJoin('profiles', 'profiles.id', 'users.id')
    .select([
      'users.id',
      'users.password_hash',
      'users.suspended_at',
      ...USER_DTO_COLUMNS,
    ])
    .where('users.email', '=', email)
    .executeTakeFirst();
}

/** The same row by id: the code step of a two-factor sign-in. */
export async function findSignInCandidateById(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .innerJoin('profiles', 'profiles.id', 'users.id')
    .select(['users.id', 'users.password_hash', 'users.suspended_at', ...USER_DTO_COLUMNS])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

export type SignInCandidate = NonNullable<Awaited<ReturnType<typeof findSignInCandidate>>>;

export async function findUserIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  return row?.id;
}
