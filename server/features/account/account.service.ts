import { TRPCError } from '@trpc/server';
import { RATE_LIMITS } from '../../../common/limits';
import {
  DATA_EXPORT,
  SECURITY_TEXTS,
  exportDownloadPath,
  type ConfirmIdentityInput,
  type DataExportDto,
} from '../../../common/security';
import type { DB } from '../../../core/db/kysely';
import type { AppDeps } from '../../../core/deps';
import { addToOutbox, dispatchOutbox } from '../../../core/outbox/outbox';
import { endSubscriptionsOfDeletedUser, type EndedByDeletion } from '../../../domain/billing/account-deletion';
import { applyBillingEffects } from '../../../domain/billing/effects';
import { verifyPassword } from '../../auth/password';
import { limitOrThrow } from '../../auth/rate-limit';
import { verifySecondFactor } from '../../auth/two-factor';
import { isTwoFactorEnabled } from '../../auth/two-factor.queries';
import { fieldError } from '../../trpc/errors';
import { findPasswordHash } from '../../auth/password.queries';
import * as q from './account.queries';
import * as exportsQ from './data-exports.queries';
import { profileAccessChanged } from '../../../domain/announcements/access-changes';
import { queueStoredFileDeletion } from '../../../domain/files/file-deletions';

export type AccountDeps = Pick<AppDeps, 'config' | 'db' | 'redis' | 'queues' | 'log' | 'realtime' | 'clock'>;

export interface ManagementDto {
  hidden: boolean;
  twoFactorEnabled: boolean;
  isCreator: boolean;
  /** what Delete All Data and Delete Account would take */
  counts: { posts: number; messages: number; activeSubscribers: number; activeSubscriptions: number };
}

export async function management(deps: AccountDeps, userId: string): Promise<ManagementDto> {
  const row = await q.findManagementState(deps.db, userId);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: 'User not found' });
  return {
    hidden: row.profile_visibility === 'hidden',
    twoFactorEnabled: row.two_factor_enabled_at !== null,
    isCreator: row.is_creator,
    counts: {
      posts: Number(row.posts ?? 0),
      messages: Number(row.messages ?? 0),
      activeSubscribers: Number(row.subscribers ?? 0),
      activeSubscriptions: Number(row.subscriptions ?? 0),
    },
  };
}

export async function setHidden(deps: AccountDeps, userId: string, hidden: boolean): Promise<{ hidden: boolean }> {
  await q.setProfileHidden(deps.db, userId, hidden);
  profileAccessChanged(deps.realtime, userId);
  return { hidden };
}

/**
 * The password again, and a code when two-factor is on, before anything is deleted. Attempts
 * count like sign-in (10 a minute per account), so a left-open session cannot be used to guess.
 */
async function confirmIdentity(deps: AccountDeps, userId: string, input: ConfirmIdentityInput): Promise<void> {
  await limitOrThrow(deps.redis, deps.config.REDIS_PREFIX, 'account-confirm', [`user:${userId}`], {
    ...RATE_LIMITS.auth,
    points: deps.config.AUTH_RATE_LIMIT,
  });
  const hash = await findPasswordHash(deps.db, userId);
  if (!hash || !(await verifyPassword(hash, input.password))) throw fieldError('password', SECURITY_TEXTS.wrongPassword);
  if (await isTwoFactorEnabled(deps.db, userId)) {
    if (!input.code) throw fieldError('code', SECURITY_TEXTS.codeRequired);
    if (!(await verifySecondFactor(deps.db, userId, input.code))) throw fieldError('code', SECURITY_TEXTS.invalidCode);
  }
}

/**
 * The rows of the user's data and what their going means for money, in the caller's transaction:
 * subscriptions on either side are cancelled at their provider and the fans of a creator who goes
 * are refunded the unused part of their period (both through the outbox:
 * domain/billing/account-deletion.ts), the files are listed for their job, the rows deleted.
 */
async function deleteData(trx: DB, userId: string, now: Date, accountGoes: boolean): Promise<EndedByDeletion> {
  const ended = await endSubscriptionsOfDeletedUser(trx, userId, now, { accountGoes });
  const keys = await q.collectStoredFiles(trx, userId);
  await q.deleteUserData(trx, userId);
  ended.outbox.push(await queueStoredFileDeletion(trx, keys));
  return ended;
}

/** After the commit: the files' job and the provider calls queued now (the outbox keeps them otherwise), the fans told. */
async function afterDeletion(deps: AccountDeps, ended: EndedByDeletion): Promise<void> {
  await dispatchOutbox(deps, ended.outbox);
  await applyBillingEffects(deps, ended.effects);
}

/** Delete All Data: one transaction for the rows (and the list of files), then the files' job. */
export async function deleteAllData(deps: AccountDeps, userId: string, input: ConfirmIdentityInput): Promise<{ ok: true }> {
  await confirmIdentity(deps, userId, input);
  const ended = await deps.db.transaction().execute((trx) => deleteData(trx, userId, deps.clock.now(), false));
  await afterDeletion(deps, ended);
  return { ok: true };
}

/**
 * Delete Account: everything of Delete All Data, then the account row, which takes with it every
 * remaining row that refers to it (settings, sessions, two-factor, tokens: ON DELETE CASCADE;
 * payments and reports are detached: SET NULL). The sessions' sockets are disconnected at once.
 */
export async function deleteAccount(deps: AccountDeps, userId: string, input: ConfirmIdentityInput): Promise<{ ok: true }> {
  await confirmIdentity(deps, userId, input);
  const { ended, sessionIds } = await deps.db.transaction().execute(async (trx) => {
    // first, before this transaction writes rows of its own: no outbox row may name the account
    // (a job for it now would find it gone and skip); the rows written below name no account
    await q.forgetOutboxRowsOf(trx, userId);
    const ended = await deleteData(trx, userId, deps.clock.now(), true);
    return { ended, sessionIds: await q.deleteUserRow(trx, userId) };
  });
  if (sessionIds.length) await deps.realtime.disconnectSessions(sessionIds);
  await afterDeletion(deps, ended);
  return { ok: true };
}

export const dataExportJobId = (exportId: string) => `data-export-${exportId}`;

type ExportRow = { id: string; status: 'pending' | 'ready' | 'failed'; created_at: Date; expires_at: Date; byte_size: string | null; failure_reason: string | null };

function toExportDto(row: ExportRow): DataExportDto {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    byteSize: row.byte_size === null ? null : Number(row.byte_size),
    downloadUrl: row.status === 'ready' ? exportDownloadPath(row.id) : null,
    failureReason: row.status === 'failed' ? row.failure_reason : null,
  };
}

export async function listExports(deps: AccountDeps, userId: string): Promise<DataExportDto[]> {
  const rows = await exportsQ.findCurrentExports(deps.db, userId, new Date(), 5);
  return rows.map(toExportDto);
}

/**
 * "Download my data": one export per user per DATA_EXPORT.cooldownMs (a failed one does not count);
 * the new export replaces the previous ones, whose files a delete-user-files job removes, so
 * exports never pile up. The zip is built on the `exports` queue; its outbox row is written here.
 */
export async function requestExport(deps: AccountDeps, userId: string): Promise<DataExportDto> {
  const now = new Date();
  const { row, jobs } = await deps.db.transaction().execute(async (trx) => {
    await exportsQ.lockUserForExport(trx, userId);
    const recent = await exportsQ.findRecentExport(trx, userId, new Date(now.getTime() - DATA_EXPORT.cooldownMs));
    if (recent) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: SECURITY_TEXTS.exportTooSoon });
    // a build still running for a replaced export finds its row gone and deletes its own file
    const replaced = await exportsQ.deleteExportsOf(trx, userId);
    const row = await exportsQ.insertExport(trx, userId, new Date(now.getTime() + DATA_EXPORT.lifetimeMs));
    const jobs = [await addToOutbox(trx, { queue: 'exports', name: 'build-data-export', data: { exportId: row.id }, jobId: dataExportJobId(row.id) })];
    const files = replaced.flatMap((r) => (r.storage_key ? [r.storage_key] : []));
    if (files.length) jobs.push(await queueStoredFileDeletion(trx, files));
    return { row, jobs };
  });
  await dispatchOutbox(deps, jobs);
  return toExportDto(row);
}
