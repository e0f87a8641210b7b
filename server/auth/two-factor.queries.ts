import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema';

/** A pool or a transaction. */
type Db = Kysely<Database>;

export async function findTotpCredential(db: Db, userId: string) {
  const row = await db
    .selectFrom('totp_credentials')
    .select(['secret', 'enabled_at', 'last_used_step'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    secret: new Uint8Array(row.secret),
    enabledAt: row.enabled_at,
    lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
  };
}

export async function isTwoFactorEnabled(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('totp_credentials')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('enabled_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** A new enrolment replaces any unfinished one; an enabled factor is never overwritten here. */
export async function upsertPendingTotp(db: Db, userId: string, secret: Uint8Array): Promise<boolean> {
  const result = await db
    .insertInto('totp_credentials')
    .values({ user_id: userId, secret: Buffer.from(secret), enabled_at: null, last_used_step: null })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ secret: Buffer.from(secret), last_used_step: null }).where('totp_credentials.enabled_at', 'is', null),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Records the step a code was accepted for, only if it is later than the last one: of two
 * requests with the same code, one updates the row and the other is refused.
 */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('totp_credentials')
    .set({ last_used_step: step })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', String(step))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function enableTotp(db: Db, userId: string, now: Date): Promise<void> {
  await db.updateTable('totp_credentials').set({ enabled_at: now }).where('user_id', '=', userId).execute();
}

export async function deleteTotp(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('totp_credentials').where('user_id', '=', userId).execute();
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: Db, userId: string, hashes: string[]): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length) await db.insertInto('recovery_codes').values(hashes.map((code_hash) => ({ user_id: userId, code_hash }))).execute();
}

/** Spends one recovery code atomically; false when unknown or already used. */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countUnusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
