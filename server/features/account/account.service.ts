import { TRPCError } from '@trpc/server';
import { RATE_LIMITS } from '../../../common/limits';
import {
  DATA_EXPORT,
  SECURITY_TEXTS,
  exportDownloadPath,
  type ConfirmIdentityInput,
  type DataExportDto,
} from '../../../common/security';
import type { AppDeps } from '../../../core/deps';
import { verifyPassword } from '../../auth/password';
import { limitOrThrow } from '../../auth/rate-limit';
import { verifySecondFactor } from '../../auth/two-factor';
import { isTwoFactorEnabled } from '../../auth/two-factor.queries';
import { fieldError } from '../../trpc/errors';
import { findPasswordHash } from '../security/security.queries';
import * as q from './account.queries';
import { profileAccessChanged } from '../../../domain/announcements/access-changes';

export type AccountDeps = Pick<AppDeps, 'config' | 'db' | 'redis' | 'queues' | 'log' | 'realtime'>;

/** The job that removes a deleted account's files: one per user, so a repeated request queues nothing new. */
export const deleteUserFilesJobId = (userId: string) => `delete-user-files-${userId}`;

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
  await q.setProfileVisibility(deps.db, userId, hidden ? 'hidden' : 'public');
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

/** After commit: the files listed in the transaction are removed by a retried job. */
async function queueFileJob(deps: AccountDeps, userId: string): Promise<void> {
  try {
    await deps.queues.add(
      'maintenance',
      'delete-user-files',
      { batch: userId },
      // removed once done, so a later deletion of the same user (data, then the account) queues again
      { jobId: deleteUserFilesJobId(userId), removeOnComplete: true },
    );
  } catch (error) {
    // The keys stay in storage_deletions; the next deletion or an operator's retry removes them.
    deps.log.error({ err: error, userId }, 'could not queue delete-user-files');
  }
}

/** Delete All Data: one transaction for the rows (and the list of files), then the files' job. */
export async function deleteAllData(deps: AccountDeps, userId: string, input: ConfirmIdentityInput): Promise<{ ok: true }> {
  await confirmIdentity(deps, userId, input);
  await deps.db.transaction().execute(async (trx) => {
    await q.queueFileDeletions(trx, userId, await q.collectStoredFiles(trx, userId));
    await q.deleteUserData(trx, userId);
  });
  await queueFileJob(deps, userId);
  return { ok: true };
}

/**
 * Delete Account: everything of Delete All Data, then the account row, which takes with it every
 * remaining row that refers to it (settings, sessions, two-factor, tokens: ON DELETE CASCADE;
 * payments and reports are detached: SET NULL). The sessions' sockets are disconnected at once.
 */
export async function deleteAccount(deps: AccountDeps, userId: string, input: ConfirmIdentityInput): Promise<{ ok: true }> {
  await confirmIdentity(deps, userId, input);
  const sessionIds = await deps.db.transaction().execute(async (trx) => {
    await q.queueFileDeletions(trx, userId, await q.collectStoredFiles(trx, userId));
    await q.deleteUserData(trx, userId);
    return q.deleteUserRow(trx, userId);
  });
  if (sessionIds.length) await deps.realtime.disconnectSessions(sessionIds);
  await queueFileJob(deps, userId);
  return { ok: true };
}

export const dataExportJobId = (exportId: string) => `data-export-${exportId}`;

function toExportDto(row: { id: string; status: 'pending' | 'ready' | 'failed'; created_at: Date; expires_at: Date; byte_size: string | null }): DataExportDto {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    byteSize: row.byte_size === null ? null : Number(row.byte_size),
    downloadUrl: row.status === 'ready' ? exportDownloadPath(row.id) : null,
  };
}

export async function listExports(deps: AccountDeps, userId: string): Promise<DataExportDto[]> {
  const rows = await deps.db
    .selectFrom('data_exports')
    .select(['id', 'status', 'created_at', 'expires_at', 'byte_size'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .orderBy('created_at', 'desc')
    .limit(5)
    .execute();
  return rows.map(toExportDto);
}

/** "Download my data": one export per user per DATA_EXPORT.cooldownMs; the zip is built by the worker. */
export async function requestExport(deps: AccountDeps, userId: string): Promise<DataExportDto> {
  const now = new Date();
  const row = await deps.db.transaction().execute(async (trx) => {
    // one request at a time per user: the user's row is the lock
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
    const recent = await trx
      .selectFrom('data_exports')
      .select('id')
      .where('user_id', '=', userId)
      .where('created_at', '>', new Date(now.getTime() - DATA_EXPORT.cooldownMs))
      .executeTakeFirst();
    if (recent) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: SECURITY_TEXTS.exportTooSoon });
    return trx
      .insertInto('data_exports')
      .values({ user_id: userId, expires_at: new Date(now.getTime() + DATA_EXPORT.lifetimeMs) })
      .returning(['id', 'status', 'created_at', 'expires_at', 'byte_size'])
      .executeTakeFirstOrThrow();
  });
  await deps.queues.add('maintenance', 'build-data-export', { exportId: row.id }, { jobId: dataExportJobId(row.id) });
  return toExportDto(row);
}
