import { generateHOTP, createTOTPKeyURI } from '@oslojs/otp';
import { encodeBase32LowerCaseNoPadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { parse, serialize } from 'cookie';
import type { ServerResponse } from 'node:http';
import { appendSetCookie } from './cookies';
import { TWO_FACTOR } from '../../common/security';
import type { DB } from '../../core/db/kysely';
import { hashToken } from '../../core/token-hash';
import { claimTotpStep, findTotpCredential, useRecoveryCode } from './two-factor.queries';

/**
 * TOTP (RFC 6238) with @oslojs/otp, recovery codes, and the short-lived sign-in challenge that
 * sits between the password and the code. Nothing here touches the database: the services own
 * the rows (server/features/security/).
 */

/** 160 random bits, the size RFC 4226 recommends. */
export function generateTotpSecret(): Uint8Array {
  const key = new Uint8Array(20);
  crypto.getRandomValues(key);
  return key;
}

export function totpUri(accountName: string, key: Uint8Array): string {
  return createTOTPKeyURI(TWO_FACTOR.issuer, accountName, key, TWO_FACTOR.periodSeconds, TWO_FACTOR.digits);
}

/** The base32 an app accepts when the secret is typed by hand. */
export const totpSecretText = (key: Uint8Array) => encodeBase32UpperCaseNoPadding(key);

const currentStep = (now: number) => Math.floor(now / 1000 / TWO_FACTOR.periodSeconds);

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The 30-second step the code belongs to (now, or one step either side for a drifting phone
 * clock), or null. A step at or before `lastUsedStep` is refused: a code works once.
 */
export function matchTotpStep(key: Uint8Array, code: string, lastUsedStep: number | null, now = Date.now()): number | null {
  const step = currentStep(now);
  for (let s = step - TWO_FACTOR.driftSteps; s <= step + TWO_FACTOR.driftSteps; s++) {
    if (lastUsedStep !== null && s <= lastUsedStep) continue;
    if (sameText(generateHOTP(key, BigInt(s), TWO_FACTOR.digits), code)) return s;
  }
  return null;
}

/** For tests and the e2e journey: the code an app would show now. */
export function currentTotpCode(key: Uint8Array, now = Date.now()): string {
  return generateHOTP(key, BigInt(currentStep(now)), TWO_FACTOR.digits);
}

/** `xxxxx-xxxxx` from 50 random bits; shown once, stored as SHA-256 of the normalised form. */
export function generateRecoveryCodes(count: number = TWO_FACTOR.recoveryCodeCount): string[] {
  return Array.from({ length: count }, () => {
    const bytes = new Uint8Array(7);
    crypto.getRandomValues(bytes);
    const text = encodeBase32LowerCaseNoPadding(bytes).slice(0, 10);
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

export const normaliseRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();
export const hashRecoveryCode = (code: string) => hashToken(normaliseRecoveryCode(code));
export const isTotpCode = (code: string) => /^\d{6}$/.test(code);

// ---------------------------------------------------------------------------------------------
// The sign-in challenge: the password was right, the code is still to come. No session exists
// yet; the browser holds a random token in an HttpOnly cookie and Redis holds its hash for
// TWO_FACTOR.challengeTtlSeconds. Losing it (Redis flushed) only means typing the password again.

export const CHALLENGE_COOKIE = 'signin_challenge';

export interface SignInChallenge {
  userId: string;
}

const challengeKey = (prefix: string, tokenHash: string) => `${prefix}:2fa-challenge:${tokenHash}`;

export async function createSignInChallenge(redis: Redis, prefix: string, challenge: SignInChallenge): Promise<string> {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  const token = encodeBase32LowerCaseNoPadding(bytes);
  await redis.set(challengeKey(prefix, hashToken(token)), JSON.stringify(challenge), 'EX', TWO_FACTOR.challengeTtlSeconds);
  return token;
}

export async function readSignInChallenge(redis: Redis, prefix: string, token: string): Promise<SignInChallenge | null> {
  const raw = await redis.get(challengeKey(prefix, hashToken(token)));
  if (!raw) return null;
  const parsed = JSON.parse(raw) as Partial<SignInChallenge>;
  return typeof parsed.userId === 'string' ? { userId: parsed.userId } : null;
}

/** Ends the challenge; true only for the one caller that removed it (two racing codes: one wins). */
export async function consumeSignInChallenge(redis: Redis, prefix: string, token: string): Promise<boolean> {
  return (await redis.del(challengeKey(prefix, hashToken(token)))) === 1;
}

export const challengeTokenHash = (token: string) => hashToken(token);

/** HttpOnly and short: page script never sees it, and it dies with the challenge. */
export function setChallengeCookie(res: ServerResponse, token: string, secure: boolean) {
  appendSetCookie(
    res,
    serialize(CHALLENGE_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: TWO_FACTOR.challengeTtlSeconds }),
  );
}

export function clearChallengeCookie(res: ServerResponse, secure: boolean) {
  appendSetCookie(res, serialize(CHALLENGE_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0 }));
}

export function challengeTokenOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  return parse(cookieHeader)[CHALLENGE_COOKIE] || null;
}

// ---------------------------------------------------------------------------------------------
// The second factor checked against the database: sign-in, disabling two-factor, deleting data.

export type SecondFactorUsed = 'totp' | 'recovery';

/**
 * Checks an enabled factor's code (or a recovery code) and spends it: a TOTP step is claimed
 * atomically (the same code twice fails), a recovery code is marked used. Null when it does not
 * match or was already used.
 */
export async function verifySecondFactor(db: DB, userId: string, code: string): Promise<SecondFactorUsed | null> {
  const credential = await findTotpCredential(db, userId);
  if (!credential?.enabledAt) return null;
  if (isTotpCode(code)) {
    const step = matchTotpStep(credential.secret, code, credential.lastUsedStep);
    if (step === null) return null;
    return (await claimTotpStep(db, userId, step)) ? 'totp' : null;
  }
  return (await useRecoveryCode(db, userId, hashRecoveryCode(code), new Date())) ? 'recovery' : null;
}
