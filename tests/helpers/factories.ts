import { randomUUID } from 'node:crypto';
import type { ProfileVisibility } from '../../common/enums';
import { createSession, generateSessionToken } from '../../server/auth/session';
import { hashPassword } from '../../server/auth/password';
import type { DB } from '../../server/db/kysely';

let cachedHash: Promise<string> | null = null;
export const FACTORY_PASSWORD = 'factory-password';

export interface MadeUser {
  id: string;
  email: string;
  username: string;
  password: string;
}

/** A confirmed user with profile and settings rows, written straight to the database. */
export async function makeUser(
  db: DB,
  opts: { username?: string; isCreator?: boolean; visibility?: ProfileVisibility; confirmed?: boolean; isVerified?: boolean; isPremium?: boolean } = {},
): Promise<MadeUser> {
  cachedHash ??= hashPassword(FACTORY_PASSWORD);
  const username = opts.username ?? `user${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.test`;
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('users')
      .values({ email, password_hash: await cachedHash!, email_verified_at: opts.confirmed === false ? null : new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('profiles')
      .values({
        id,
        username,
        display_name: `${username[0]!.toUpperCase()}${username.slice(1)} Tester`,
        date_of_birth: '1990-01-01',
        is_creator: opts.isCreator ?? false,
        is_verified: opts.isVerified ?? false,
        is_premium: opts.isPremium ?? false,
      })
      .execute();
    await trx.insertInto('privacy_settings').values({ user_id: id, profile_visibility: opts.visibility ?? 'public' }).execute();
    await trx.insertInto('notification_settings').values({ user_id: id }).execute();
    await trx.insertInto('verification_status').values({ user_id: id }).execute();
    return { id, email, username, password: FACTORY_PASSWORD };
  });
}

/** A session for `userId`; returns the cookie header value a browser would send. */
export async function makeSessionCookie(db: DB, userId: string): Promise<{ token: string; cookie: string; sessionId: string }> {
  const token = generateSessionToken();
  const session = await createSession(db, token, userId);
  return { token, cookie: `session=${token}`, sessionId: session.id };
}
