import { TRPCError } from '@trpc/server';
import { randomUUID } from 'node:crypto';
import type { UserDto } from '../../../common/auth-dtos';
import type { SignInInput, SignOutInput, SignUpInput } from '../../../common/auth-schemas';
import { MAIL_JOB_OPTIONS, oneMailJobId } from '../../../common/jobs';
import { RATE_LIMITS } from '../../../common/limits';
import { AUTH_TEXTS, VALIDATION } from '../../../common/texts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../auth/password';
import { limitOrThrow } from '../../auth/rate-limit';
import {
  createSession,
  generateSessionToken,
  invalidateSession,
  invalidateUserSessions,
} from '../../auth/session';
import type { SessionInfo, SessionUser } from '../../../core/sessions/resolved-session';
import type { AppDeps } from '../../../core/deps';
import { addToOutbox, dispatchOutbox, queueThroughOutbox, type QueuedEntry } from '../../../core/outbox/outbox';
import { hashToken } from '../../../core/token-hash';
import { SECURITY_TEXTS, TWO_FACTOR } from '../../../common/security';
import type { SecurityNoticeKind } from '../../../common/jobs';
import { updatePasswordHash } from '../../auth/password.queries';
import { addSecurityNotice } from '../../auth/security-notices';
import {
  challengeTokenHash,
  consumeSignInChallenge,
  createSignInChallenge,
  readSignInChallenge,
  verifySecondFactor,
} from '../../auth/two-factor';
import { isTwoFactorEnabled } from '../../auth/two-factor.queries';
import { fieldError } from '../../trpc/errors';
import * as q from './auth.queries';
import { userDtoOf } from '../../../domain/people/user-columns';

/** The configured attempts per window (AUTH_RATE_LIMIT, default 10 a minute). */
const authLimit = (config: { AUTH_RATE_LIMIT: number }) => ({ ...RATE_LIMITS.auth, points: config.AUTH_RATE_LIMIT });

export type AuthDeps = Pick<AppDeps, 'config' | 'db' | 'redis' | 'queues' | 'log' | 'realtime'>;

export function toUserDto(user: SessionUser): UserDto {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    displayName: user.displayName,
    avatarUrl: user.avatarUrl,
    isCreator: user.isCreator,
    isPremium: user.isPremium,
    isVerified: user.isVerified,
    role: user.role,
  };
}

function candidateToDto(row: q.SignInCandidate): UserDto {
  return userDtoOf(row.id, row);
}

function isUniqueViolation(error: unknown): error is { code: string; constraint?: string; detail?: string } {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** Which unique rule a 23505 broke, by constraint name (migrations 0001 and 0002). */
function violatedField(error: { constraint?: string }): 'email' | 'username' | null {
  if (error.constraint === 'users_email_key') return 'email';
  if (error.constraint === 'profiles_username_lower_key') return 'username';
  return null;
}

const accountExists = () => new TRPCError({ code: 'CONFLICT', message: AUTH_TEXTS.accountExists.description });
const usernameTaken = () => fieldError('username', VALIDATION.usernameTaken, 'CONFLICT');

// ---------------------------------------------------------------------------------------------
// Sign-up and e-mail confirmation

export async function signUp(deps: AuthDeps, input: SignUpInput, meta: { ip: string }): Promise<{ ok: true }> {
  const { db, redis, config } = deps;
  await limitOrThrow(redis, config.REDIS_PREFIX, 'signup', [`ip:${meta.ip}`, `email:${input.email}`], authLimit(config));

  // Friendly early answers; the unique constraints below remain the authority (two racing sign-ups).
  if (await q.findUserIdByEmail(db, input.email)) throw accountExists();
  if (await q.usernameExists(db, input.username)) throw usernameTaken();

  const passwordHash = await hashPassword(input.password);
  let confirmation: QueuedEntry;
  try {
    confirmation = await db.transaction().execute(async (trx) => {
      const id = await q.insertUser(trx, { email: input.email, passwordHash });
      await q.insertProfile(trx, {
        id,
        username: input.username,
        displayName: `${input.firstName} ${input.surname}`,
        dateOfBirth: input.dateOfBirth,
      });
      await q.insertPrivacySettings(trx, id);
      await q.insertNotificationSettings(trx, id);
      await q.insertVerificationStatus(trx, id);
      return addToOutbox(trx, mailEntry('confirm-email', id));
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const field = violatedField(error);
      if (field === 'email') throw accountExists();
      if (field === 'username') throw usernameTaken();
    }
    throw error;
  }

  // The mail's outbox row committed with the account, so the job can never point at a rolled-back
  // account, and a Redis that refuses it now only delays it (the relay queues it).
  await dispatchOutbox(deps, [confirmation]);
  return { ok: true };
}

/** The job names the user only; the worker makes the link's token when it sends (common/jobs.ts). */
function mailEntry(name: 'confirm-email' | 'reset-password', userId: string) {
  return { queue: 'mail', name, data: { userId }, jobId: oneMailJobId(name, randomUUID()), options: MAIL_JOB_OPTIONS } as const;
}

async function enqueueMail(deps: AuthDeps, name: 'confirm-email' | 'reset-password', userId: string): Promise<void> {
  await queueThroughOutbox(deps, mailEntry(name, userId));
}

/**
 * Confirms the address of a confirmation link's token. A link opened again (its token is kept,
 * marked used) answers `alreadyConfirmed` when its account's address is confirmed; any other
 * token (unknown, expired, another purpose, or retired while the address is still unconfirmed)
 * is 'invalid or expired'.
 */
export async function confirmEmail(deps: AuthDeps, token: string): Promise<{ ok: true; alreadyConfirmed: boolean }> {
  const now = new Date();
  const tokenHash = hashToken(token);
  const confirmed = await deps.db.transaction().execute(async (trx) => {
    const userId = await q.consumeEmailToken(trx, tokenHash, 'confirm_email', now);
    if (!userId) return false;
    await q.markUserEmailVerified(trx, userId, now);
    await q.markVerificationStatusEmail(trx, userId, now);
    return true;
  });
  if (confirmed) return { ok: true, alreadyConfirmed: false };
  if (await q.isUsedTokenOfConfirmedUser(deps.db, tokenHash, 'confirm_email')) return { ok: true, alreadyConfirmed: true };
  throw new TRPCError({ code: 'BAD_REQUEST', message: AUTH_TEXTS.confirmLinkInvalid });
}

/** One confirmation mail per user per minute, however often an unconfirmed sign-in is tried. */
const RESEND_CONFIRMATION_SECONDS = 60;

async function resendConfirmation(deps: AuthDeps, userId: string): Promise<void> {
  const key = `${deps.config.REDIS_PREFIX}:mail-throttle:confirm-email:${userId}`;
  const first = await deps.redis.set(key, '1', 'EX', RESEND_CONFIRMATION_SECONDS, 'NX');
  if (first !== 'OK') return;
  await enqueueMail(deps, 'confirm-email', userId);
}

// ---------------------------------------------------------------------------------------------
// Sessions

export interface SignedIn {
  /** the cookie value; its hash is the session id */
  token: string;
  session: SessionInfo;
  user: UserDto;
}

/** The password was right and the account has two-factor on: no session until the code. */
export interface ChallengeIssued {
  challengeToken: string;
}

export type SignInResult = SignedIn | ChallengeIssued;

export async function signIn(
  deps: AuthDeps,
  input: SignInInput,
  meta: { ip: string; userAgent: string | null; currentSessionId: string | null },
): Promise<SignInResult> {
  const { db, redis, config } = deps;
  await limitOrThrow(redis, config.REDIS_PREFIX, 'signin', [`ip:${meta.ip}`, `email:${input.email}`], authLimit(config));

  const candidate = await q.findSignInCandidate(db, input.email);
  if (!candidate) {
    // Same work as a real check, so the answer time does not tell whether the address has an account.
    await verifyPassword(await dummyPasswordHash(), input.password);
    throw new TRPCError({ code: 'UNAUTHORIZED', message: AUTH_TEXTS.invalidCredentials });
  }
  if (!(await verifyPassword(candidate.password_hash, input.password))) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: AUTH_TEXTS.invalidCredentials });
  }
  // Only the right password learns that the account is suspended or the address unconfirmed.
  refuseSuspended(candidate);
  if (!candidate.email_verified_at) {
    await resendConfirmation(deps, candidate.id);
    throw new TRPCError({ code: 'FORBIDDEN', message: AUTH_TEXTS.emailNotConfirmed });
  }

  if (await isTwoFactorEnabled(db, candidate.id)) {
    return { challengeToken: await createSignInChallenge(redis, config.REDIS_PREFIX, { userId: candidate.id }) };
  }
  return startSession(deps, candidate, meta);
}

/** An account suspended by an admin (a report acted on) gets no session, whatever the credentials. */
function refuseSuspended(candidate: Pick<q.SignInCandidate, 'suspended_at'>) {
  if (candidate.suspended_at) throw new TRPCError({ code: 'FORBIDDEN', message: AUTH_TEXTS.accountSuspended });
}

/** A new token at every sign-in; a session the browser still carried is retired (no fixation). */
async function startSession(
  deps: AuthDeps,
  candidate: q.SignInCandidate,
  meta: { ip: string; userAgent: string | null; currentSessionId: string | null },
  notices: SecurityNoticeKind[] = [],
): Promise<SignedIn> {
  refuseSuspended(candidate);
  if (meta.currentSessionId) {
    await invalidateSession(deps.db, meta.currentSessionId);
    await deps.realtime.forgetSessions({ sessionIds: [meta.currentSessionId] });
  }
  const token = generateSessionToken();
  const { session, mail } = await deps.db.transaction().execute(async (trx) => {
    const session = await createSession(trx, token, candidate.id, { userAgent: meta.userAgent, ip: meta.ip });
    const mail: QueuedEntry[] = [];
    for (const kind of ['new-sign-in', ...notices] as const) mail.push(await addSecurityNotice(trx, candidate.id, kind, meta.userAgent));
    return { session, mail };
  });
  await dispatchOutbox(deps, mail);
  return { token, session, user: candidateToDto(candidate) };
}

/**
 * The code step of a sign-in: the challenge (from the HttpOnly cookie set with the password step)
 * names the account; the code is the app's or a recovery code. Rate limited per challenge (5
 * codes) and per address and account like sign-in; the challenge is consumed by the one request
 * that wins, so two racing right codes make one session.
 */
export async function verifyTwoFactorSignIn(
  deps: AuthDeps,
  challengeToken: string | null,
  code: string,
  meta: { ip: string; userAgent: string | null; currentSessionId: string | null },
): Promise<SignedIn> {
  const { db, redis, config } = deps;
  const expired = () => new TRPCError({ code: 'UNAUTHORIZED', message: SECURITY_TEXTS.challengeExpired });
  if (!challengeToken) throw expired();
  await limitOrThrow(redis, config.REDIS_PREFIX, 'signin-2fa', [`challenge:${challengeTokenHash(challengeToken)}`], {
    points: TWO_FACTOR.attemptsPerChallenge,
    windowSeconds: TWO_FACTOR.challengeTtlSeconds,
  });
  const challenge = await readSignInChallenge(redis, config.REDIS_PREFIX, challengeToken);
  if (!challenge) throw expired();
  await limitOrThrow(redis, config.REDIS_PREFIX, 'signin-2fa', [`ip:${meta.ip}`, `user:${challenge.userId}`], authLimit(config));
  const used = await verifySecondFactor(db, challenge.userId, code);
  if (!used) throw new TRPCError({ code: 'UNAUTHORIZED', message: SECURITY_TEXTS.invalidCode });
  if (!(await consumeSignInChallenge(redis, config.REDIS_PREFIX, challengeToken))) throw expired();
  const candidate = await q.findSignInCandidateById(db, challenge.userId);
  if (!candidate) throw expired();
  return startSession(deps, candidate, meta, used === 'recovery' ? ['recovery-code-used'] : []);
}

/** Returns whether this browser's cookie must be cleared. */
export async function signOut(
  deps: AuthDeps,
  scope: SignOutInput['scope'],
  current: { sessionId: string; userId: string },
): Promise<{ clearCookie: boolean; sessionsEnded: number }> {
  let removed: string[];
  if (scope === 'local') {
    await invalidateSession(deps.db, current.sessionId);
    removed = [current.sessionId];
  } else if (scope === 'others') {
    removed = await invalidateUserSessions(deps.db, current.userId, current.sessionId);
  } else {
    removed = await invalidateUserSessions(deps.db, current.userId);
  }
  if (removed.length) await deps.realtime.disconnectSessions(removed);
  return { clearCookie: scope !== 'others', sessionsEnded: removed.length };
}

// ---------------------------------------------------------------------------------------------
// Password reset

export async function requestPasswordReset(deps: AuthDeps, email: string, meta: { ip: string }): Promise<{ ok: true }> {
  const { db, redis, config } = deps;
  await limitOrThrow(redis, config.REDIS_PREFIX, 'reset', [`ip:${meta.ip}`, `email:${email}`], authLimit(config));
  const userId = await q.findUserIdByEmail(db, email);
  if (userId) await enqueueMail(deps, 'reset-password', userId);
  // The same answer either way: the form never tells who has an account.
  return { ok: true };
}

/** Returns the account whose password changed (all its sessions ended). */
export async function resetPassword(
  deps: AuthDeps,
  token: string,
  password: string,
  meta: { ip: string },
): Promise<{ userId: string }> {
  const { db, redis, config } = deps;
  const tokenHash = hashToken(token);
  // Per link as well as per address (the hash: a raw token never becomes a Redis key).
  await limitOrThrow(redis, config.REDIS_PREFIX, 'reset-confirm', [`ip:${meta.ip}`, `token:${tokenHash}`], authLimit(config));
  const invalidLink = () => new TRPCError({ code: 'BAD_REQUEST', message: AUTH_TEXTS.resetLinkInvalid });
  // A dead link costs no argon2 work; the transaction below still consumes the token atomically.
  if (!(await q.isUsableEmailToken(db, tokenHash, 'reset_password', new Date()))) throw invalidLink();
  const passwordHash = await hashPassword(password);
  const now = new Date();
  const removed = await db.transaction().execute(async (trx) => {
    const userId = await q.consumeEmailToken(trx, tokenHash, 'reset_password', now);
    if (!userId) return null;
    await updatePasswordHash(trx, userId, passwordHash, now);
    await q.retireEmailTokens(trx, userId, 'reset_password', now);
    // The link reached the inbox, which is what confirming the address proves.
    await q.markUserEmailVerified(trx, userId, now);
    await q.markVerificationStatusEmail(trx, userId, now);
    return { userId, sessionIds: await invalidateUserSessions(trx, userId) };
  });
  if (!removed) throw invalidLink();
  if (removed.sessionIds.length) await deps.realtime.disconnectSessions(removed.sessionIds);
  return { userId: removed.userId };
}
