import { TRPCError } from '@trpc/server';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { MessageReportDto } from '../../../common/message-dtos';
import type { AdminReportsInput, CloseReportInput, ReportIdInput, ReportMessageInput } from '../../../common/message-schemas';
import { reportEvidenceKey, reportEvidenceUrl } from '../../../common/messages';
import { MESSAGE_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import type { ReportResolution } from '../../../core/db/schema';
import { invalidateUserSessions } from '../../auth/session';
import { decodeCursor, encodeCursor } from './messages.dto';
import { findMessageFacts, isoMicro } from './messages.queries';
import { removeMessage, type MessagesDeps } from './messages.service';

const REPORTS_PAGE_SIZE = 20;

type ReportDeps = Pick<AppDeps, 'db' | 'storage' | 'log'>;

const reportNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: MESSAGE_TEXTS.reportNotFound });

/**
 * Reports a message sent TO the caller (one report per user per message: reporting again
 * replaces the reason and reopens it). What was reported is kept as it was: the text, and the
 * file copied into storage the report owns (message-reports/<reportId>/…), so an edit or the
 * sender deleting the message hides nothing from the admins, and only admins can fetch the copy.
 */
export async function reportMessage(deps: ReportDeps, userId: string, input: ReportMessageInput): Promise<{ id: string }> {
  const message = await deps.db
    .selectFrom('messages as m')
    .leftJoin('message_attachments as a', (j) => j.onRef('a.id', '=', 'm.attachment_id').on('a.status', '=', 'ready'))
    .select(['m.id', 'm.sender_id', 'm.content', 'a.storage_key', 'a.content_type', 'a.kind', 'a.original_filename'])
    .where('m.id', '=', input.messageId)
    .where('m.recipient_id', '=', userId)
    .executeTakeFirst();
  if (!message) throw new TRPCError({ code: 'NOT_FOUND', message: MESSAGE_TEXTS.messageNotFound });

  const earlier = await deps.db
    .selectFrom('message_reports')
    .select(['id', 'evidence_key'])
    .where('message_id', '=', message.id)
    .where('reporter_id', '=', userId)
    .executeTakeFirst();
  const reportId = earlier?.id ?? randomUUID();
  // the copy first: a report row never points at a file that is not there
  let evidence: { evidence_key: string; evidence_type: string; evidence_kind: string; evidence_name: string } | null = null;
  if (message.storage_key && message.content_type && message.kind) {
    const key = reportEvidenceKey(reportId, randomUUID());
    const source = await deps.storage.get(message.storage_key);
    await deps.storage.put(key, source.stream, message.content_type);
    evidence = { evidence_key: key, evidence_type: message.content_type, evidence_kind: message.kind, evidence_name: message.original_filename ?? 'file' };
  }
  const snapshot = { content: message.content, evidence_key: null, evidence_type: null, evidence_kind: null, evidence_name: null, ...evidence };
  const row = await deps.db
    .insertInto('message_reports')
    .values({ id: reportId, message_id: message.id, reporter_id: userId, sender_id: message.sender_id, reason: input.reason, ...snapshot })
    .onConflict((oc) =>
      oc.columns(['message_id', 'reporter_id']).doUpdateSet({
        reason: input.reason,
        ...snapshot,
        status: 'open',
        resolution: null,
        closed_at: null,
        closed_by: null,
        updated_at: new Date(),
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  if (earlier?.evidence_key && earlier.evidence_key !== evidence?.evidence_key) {
    await deps.storage.delete(earlier.evidence_key).catch((error: unknown) => deps.log.warn({ err: error }, 'could not delete a replaced report copy'));
  }
  return { id: row.id };
}

function reportsQuery(deps: Pick<AppDeps, 'db'>) {
  return deps.db
    .selectFrom('message_reports as r')
    .innerJoin('profiles as rp', 'rp.id', 'r.reporter_id')
    .leftJoin('profiles as sp', 'sp.id', 'r.sender_id')
    .select([
      'r.id',
      'r.reason',
      'r.status',
      'r.resolution',
      'r.message_id',
      'r.content',
      'r.evidence_key',
      'r.evidence_kind',
      'r.evidence_name',
      isoMicro('r.created_at').as('created_at'),
      isoMicro('r.closed_at').as('closed_at'),
      'rp.id as rp_id',
      'rp.username as rp_username',
      'rp.display_name as rp_display_name',
      'rp.avatar_url as rp_avatar_url',
      'rp.is_verified as rp_is_verified',
      'rp.is_premium as rp_is_premium',
      'sp.id as sp_id',
      'sp.username as sp_username',
      'sp.display_name as sp_display_name',
      'sp.avatar_url as sp_avatar_url',
      'sp.is_verified as sp_is_verified',
      'sp.is_premium as sp_is_premium',
    ]);
}

type ReportRow = Awaited<ReturnType<ReturnType<typeof reportsQuery>['execute']>>[number];

function toReportDto(r: ReportRow): MessageReportDto {
  return {
    id: r.id,
    reason: r.reason,
    status: r.status,
    resolution: r.resolution,
    createdAt: r.created_at,
    closedAt: r.closed_at,
    messageId: r.message_id,
    content: r.content,
    evidence: r.evidence_key && r.evidence_kind ? { kind: r.evidence_kind, name: r.evidence_name ?? 'file', url: reportEvidenceUrl(r.id) } : null,
    reporter: {
      id: r.rp_id,
      username: r.rp_username,
      displayName: r.rp_display_name,
      avatarUrl: r.rp_avatar_url,
      isVerified: r.rp_is_verified,
      isPremium: r.rp_is_premium,
    },
    sender:
      r.sp_id && r.sp_username && r.sp_display_name !== null
        ? {
            id: r.sp_id,
            username: r.sp_username,
            displayName: r.sp_display_name,
            avatarUrl: r.sp_avatar_url,
            isVerified: Boolean(r.sp_is_verified),
            isPremium: Boolean(r.sp_is_premium),
          }
        : null,
  };
}

/** Admins: reports by status, newest first, one statement per page (the list shows no evidence: opening a report does, and is logged). */
export async function listReports(deps: Pick<AppDeps, 'db'>, input: AdminReportsInput): Promise<{ reports: MessageReportDto[]; nextCursor: string | null }> {
  const cursor = decodeCursor(input.cursor);
  const rows = await reportsQuery(deps)
    .where('r.status', '=', input.status)
    .$if(cursor !== null, (q) => q.where(sql<boolean>`(r.created_at, r.id) < (${cursor!.at}::timestamptz, ${cursor!.id}::uuid)`))
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(REPORTS_PAGE_SIZE + 1)
    .execute();
  const page = rows.slice(0, REPORTS_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    reports: page.map((r) => ({ ...toReportDto(r), content: null, evidence: null })),
    nextCursor: rows.length > REPORTS_PAGE_SIZE && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

/** Admins: one report with what was reported; every opening is written to report_views (who, when). */
export async function openReport(deps: Pick<AppDeps, 'db'>, adminId: string, input: ReportIdInput): Promise<MessageReportDto & { views: number }> {
  return deps.db.transaction().execute(async (trx) => {
    const row = await reportsQuery({ db: trx }).where('r.id', '=', input.id).executeTakeFirst();
    if (!row) throw reportNotFound();
    await trx.insertInto('report_views').values({ report_id: row.id, admin_id: adminId }).execute();
    const { n } = await trx.selectFrom('report_views').select((eb) => eb.fn.countAll<string>().as('n')).where('report_id', '=', row.id).executeTakeFirstOrThrow();
    return { ...toReportDto(row), views: Number(n) };
  });
}

/** Admins: the report's copy of the reported file, for the media route (null: no such report or copy). */
export async function reportEvidence(deps: Pick<AppDeps, 'db'>, reportId: string) {
  const row = await deps.db
    .selectFrom('message_reports')
    .select(['id', 'evidence_key', 'evidence_type', 'evidence_name'])
    .where('id', '=', reportId)
    .executeTakeFirst();
  return row?.evidence_key && row.evidence_type ? { id: row.id, storageKey: row.evidence_key, contentType: row.evidence_type, name: row.evidence_name ?? 'file' } : null;
}

async function close(deps: Pick<AppDeps, 'db'>, adminId: string, id: string, resolution: ReportResolution) {
  const row = await deps.db
    .updateTable('message_reports')
    .set({ status: 'closed', resolution, closed_at: new Date(), closed_by: adminId, updated_at: new Date() })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw reportNotFound();
  return row;
}

export async function closeReport(deps: Pick<AppDeps, 'db'>, adminId: string, input: CloseReportInput): Promise<{ id: string; status: 'closed' }> {
  const row = await close(deps, adminId, input.id, 'dismissed');
  return { id: row.id, status: 'closed' };
}

async function reportFacts(deps: Pick<AppDeps, 'db'>, id: string) {
  const row = await deps.db.selectFrom('message_reports').select(['id', 'message_id', 'sender_id']).where('id', '=', id).executeTakeFirst();
  if (!row) throw reportNotFound();
  return row;
}

/**
 * Admins: removes the reported message for both participants (as its author deleting it would;
 * the report keeps its copy) and closes the report. A message gone already closes it the same.
 */
export async function removeReportedMessage(deps: MessagesDeps, adminId: string, input: ReportIdInput): Promise<{ id: string; message: string }> {
  const report = await reportFacts(deps, input.id);
  const facts = report.message_id ? await findMessageFacts(deps.db, report.message_id) : undefined;
  if (facts) await removeMessage({ ...deps, socketId: null }, facts);
  await close(deps, adminId, report.id, 'content-removed');
  return { id: report.id, message: MESSAGE_TEXTS.reportContentRemoved };
}

/**
 * Admins: suspends the reported message's sender: `suspended_at` set and every session of theirs
 * deleted in one transaction; after the commit every server copy forgets those sessions and
 * disconnects their sockets. They cannot sign in again (auth.service). Closes the report.
 */
export async function suspendReportedSender(
  deps: Pick<AppDeps, 'db' | 'realtime'>,
  adminId: string,
  input: ReportIdInput,
): Promise<{ id: string; message: string }> {
  const report = await reportFacts(deps, input.id);
  const senderId = report.sender_id;
  if (!senderId) throw new TRPCError({ code: 'NOT_FOUND', message: MESSAGE_TEXTS.reportNoSender });
  const sessionIds = await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ suspended_at: new Date() }).where('id', '=', senderId).where('suspended_at', 'is', null).execute();
    await trx
      .updateTable('message_reports')
      .set({ status: 'closed', resolution: 'account-suspended', closed_at: new Date(), closed_by: adminId, updated_at: new Date() })
      .where('id', '=', report.id)
      .execute();
    return invalidateUserSessions(trx, senderId);
  });
  if (sessionIds.length) await deps.realtime.disconnectSessions(sessionIds);
  await deps.realtime.forgetSessions({ userIds: [senderId] });
  return { id: report.id, message: MESSAGE_TEXTS.reportSenderSuspended };
}
