import { TRPCError } from '@trpc/server';
import QRCode from 'qrcode';
import { RATE_LIMITS } from '../../../common/limits';
import {
  SECURITY_TEXTS,
  type ChangePasswordInput,
  type SecurityOverviewDto,
  type SessionDto,
  type TwoFactorEnrolmentDto,
} from '../../../common/security';
import type { AppDeps } from '../../../core/deps';
import { dispatchOutbox } from '../../../core/outbox/outbox';
import { describeDevice } from '../../auth/device';
import { findPasswordHash, updatePasswordHash } from '../../auth/password.queries';
import { addSecurityNotice } from '../../auth/security-notices';
import { hashPassword, verifyPassword } from '../../auth/password';
import { limitOrThrow } from '../../auth/rate-limit';
import { invalidateUserSessions } from '../../auth/session';
import {
  generateRecoveryCodes,
  generateTotpSecret,
  hashRecoveryCode,
  matchTotpStep,
  totpSecretText,
  totpUri,
  verifySecondFactor,
} from '../../auth/two-factor';
import * as tf from '../../auth/two-factor.queries';
import { fieldError } from '../../trpc/errors';
import * as q from './security.queries';

export type SecurityDeps = Pick<AppDeps, 'config' | 'db' | 'redis' | 'queues' | 'log' | 'realtime'>;

interface Caller {
  userId: string;
  sessionId: string;
  email: string;
  userAgent: string | null;
}

const attemptLimit = (config: { AUTH_RATE_LIMIT: number }) => ({ ...RATE_LIMITS.auth, points: config.AUTH_RATE_LIMIT });

/** Password and code guesses made from a signed-in session count like sign-in attempts. */
async function limitAttempts(deps: SecurityDeps, userId: string, what: string) {
  await limitOrThrow(deps.redis, deps.config.REDIS_PREFIX, what, [`user:${userId}`], attemptLimit(deps.config));
}

export async function overview(deps: SecurityDeps, userId: string): Promise<SecurityOverviewDto> {
  const [enabled, left] = await Promise.all([tf.isTwoFactorEnabled(deps.db, userId), tf.countUnusedRecoveryCodes(deps.db, userId)]);
  return { twoFactorEnabled: enabled, recoveryCodesLeft: enabled ? left : 0 };
}

export async function sessions(deps: SecurityDeps, caller: Pick<Caller, 'userId' | 'sessionId'>): Promise<SessionDto[]> {
  const rows = await q.listSessions(deps.db, caller.userId, new Date());
  // this device first, then the most recently seen
  rows.sort((a, b) => Number(b.id === caller.sessionId) - Number(a.id === caller.sessionId));
  return rows.map((row) => ({
    id: row.public_id,
    device: describeDevice(row.user_agent),
    ip: row.ip,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    current: row.id === caller.sessionId,
  }));
}

/**
 * Signs out one of the caller's sessions (another user's id, or an unknown one, is 'Session not
 * found' and touches nothing). Its sockets get `session:revoked` and are disconnected at once.
 * Returns whether it was the caller's own session (the cookie must then be cleared).
 */
export async function revokeSession(deps: SecurityDeps, caller: Pick<Caller, 'userId' | 'sessionId'>, publicId: string) {
  const removed = await q.deleteSessionOfUser(deps.db, caller.userId, publicId);
  if (!removed) throw new TRPCError({ code: 'NOT_FOUND', message: SECURITY_TEXTS.sessionNotFound });
  await deps.realtime.disconnectSessions([removed]);
  return { current: removed === caller.sessionId };
}

/** Current password required; every other session ends (and its sockets); security mail. */
export async function changePassword(deps: SecurityDeps, caller: Caller, input: ChangePasswordInput) {
  await limitAttempts(deps, caller.userId, 'password-change');
  const hash = await findPasswordHash(deps.db, caller.userId);
  if (!hash || !(await verifyPassword(hash, input.currentPassword))) {
    throw fieldError('currentPassword', SECURITY_TEXTS.wrongPassword);
  }
  const newHash = await hashPassword(input.newPassword);
  const { removed, mail } = await deps.db.transaction().execute(async (trx) => {
    await updatePasswordHash(trx, caller.userId, newHash, new Date());
    const removed = await invalidateUserSessions(trx, caller.userId, caller.sessionId);
    return { removed, mail: await addSecurityNotice(trx, caller.userId, 'password-changed', caller.userAgent) };
  });
  if (removed.length) await deps.realtime.disconnectSessions(removed);
  await dispatchOutbox(deps, [mail]);
  return { ok: true as const, sessionsEnded: removed.length };
}

/**
 * Starts enrolment: a new secret (replacing an unfinished enrolment, never an enabled factor) as
 * a QR code and as text. Nothing changes at sign-in until confirmTwoFactor proves the app works.
 */
export async function startTwoFactor(deps: SecurityDeps, caller: Pick<Caller, 'userId' | 'email'>): Promise<TwoFactorEnrolmentDto> {
  const secret = generateTotpSecret();
  if (!(await tf.upsertPendingTotp(deps.db, caller.userId, secret))) {
    throw new TRPCError({ code: 'CONFLICT', message: SECURITY_TEXTS.alreadyEnabled });
  }
  const uri = totpUri(caller.email, secret);
  const qrCode = await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  return { qrCode, secret: totpSecretText(secret) };
}

/** The first code from the app turns two-factor on; the recovery codes are returned this once. */
export async function confirmTwoFactor(deps: SecurityDeps, caller: Caller, code: string): Promise<{ recoveryCodes: string[] }> {
  await limitAttempts(deps, caller.userId, 'two-factor-setup');
  const credential = await tf.findTotpCredential(deps.db, caller.userId);
  if (!credential) throw new TRPCError({ code: 'BAD_REQUEST', message: SECURITY_TEXTS.notEnrolling });
  if (credential.enabledAt) throw new TRPCError({ code: 'CONFLICT', message: SECURITY_TEXTS.alreadyEnabled });
  const step = matchTotpStep(credential.secret, code, credential.lastUsedStep);
  if (step === null) throw fieldError('code', SECURITY_TEXTS.invalidCode);
  const recoveryCodes = generateRecoveryCodes();
  const mail = await deps.db.transaction().execute(async (trx) => {
    if (!(await tf.claimTotpStep(trx, caller.userId, step))) return null;
    await tf.enableTotp(trx, caller.userId, new Date());
    await tf.replaceRecoveryCodes(trx, caller.userId, recoveryCodes.map(hashRecoveryCode));
    return addSecurityNotice(trx, caller.userId, 'two-factor-enabled', caller.userAgent);
  });
  if (!mail) throw fieldError('code', SECURITY_TEXTS.invalidCode);
  await dispatchOutbox(deps, [mail]);
  return { recoveryCodes };
}

/** A current code (or a recovery code) turns two-factor off; its secret and codes are deleted. */
export async function disableTwoFactor(deps: SecurityDeps, caller: Caller, code: string) {
  await limitAttempts(deps, caller.userId, 'two-factor-disable');
  if (!(await tf.isTwoFactorEnabled(deps.db, caller.userId))) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: SECURITY_TEXTS.notEnabled });
  }
  if (!(await verifySecondFactor(deps.db, caller.userId, code))) throw fieldError('code', SECURITY_TEXTS.invalidCode);
  const mail = await deps.db.transaction().execute(async (trx) => {
    await tf.deleteTotp(trx, caller.userId);
    return addSecurityNotice(trx, caller.userId, 'two-factor-disabled', caller.userAgent);
  });
  await dispatchOutbox(deps, [mail]);
  return { ok: true as const };
}
