import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import type { EmailTokenPurpose } from '../../common/enums';
import { EMAIL_TOKEN_TTL_MS } from '../../common/limits';
import { hashToken } from '../../core/token-hash';
import type { DB } from '../../core/db/kysely';

/**
 * The tokens of mailed links are made here, by the mail job, at the moment it sends: no token
 * ever sits in a job's data (Redis, the queue dashboard). The server only consumes them (by the
 * same `hashToken`, core/token-hash.ts), in server/features/auth.
 */

/** 256 random bits, base64url: mailed to the user; the database keeps only its SHA-256. */
export function generateEmailToken(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return encodeBase64urlNoPadding(bytes);
}

export interface MailRecipient {
  email: string;
  emailVerified: boolean;
}

/** The address as it is now (it may have changed since the job was queued); undefined once the account is gone. */
export async function findMailRecipient(db: DB, userId: string): Promise<MailRecipient | undefined> {
  const row = await db.selectFrom('users').select(['email', 'email_verified_at']).where('id', '=', userId).executeTakeFirst();
  return row && { email: row.email, emailVerified: row.email_verified_at !== null };
}

/**
 * A new token of `purpose` for the user, valid until `expiresAt`. The mail job derives the expiry
 * from its own creation time, so every attempt of one job gives the same expiry and the tokens of
 * its earlier attempts (unused, same expiry) are retired here, in the same transaction: a retried
 * job leaves one valid link, and another job's link is left alone. The user's row is locked first
 * so two runs of one job cannot both keep theirs. Returns the raw token (for the mail only), or
 * undefined when the account no longer exists.
 */
export async function issueEmailToken(
  db: DB,
  userId: string,
  purpose: EmailTokenPurpose,
  expiresAt: Date,
): Promise<string | undefined> {
  const token = generateEmailToken();
  const issued = await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirst();
    if (!user) return false;
    await trx
      .updateTable('email_tokens')
      .set({ used_at: new Date() })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('expires_at', '=', expiresAt)
      .where('used_at', 'is', null)
      .execute();
    await trx.insertInto('email_tokens').values({ id: hashToken(token), user_id: userId, purpose, expires_at: expiresAt, used_at: null }).execute();
    return true;
  });
  return issued ? token : undefined;
}

/** When the link of a mail job queued at `queuedAt` stops working (the same for every attempt). */
export function emailTokenExpiry(purpose: EmailTokenPurpose, queuedAt: number): Date {
  return new Date(queuedAt + EMAIL_TOKEN_TTL_MS[purpose]);
}
