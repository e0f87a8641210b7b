import { TRPCError } from '@trpc/server';
import { randomUUID } from 'node:crypto';
import type { ChatPartnerDto, MessageReportDto } from '../../../common/message-dtos';
import type { AdminReportsInput, CloseReportInput, ReportIdInput, ReportMessageInput } from '../../../common/message-schemas';
import { reportEvidenceKey, reportEvidenceUrl } from '../../../common/messages';
import { MESSAGE_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import type { ReportResolution } from '../../../core/db/schema';
import { invalidateUserSessions } from '../../auth/session';
import { decodeCursor, encodeCursor } from './messages.dto';
import { findMessageFacts } from './messages.queries';
import { removeMessage, type MessagesDeps } from './messages.service';
import {
  closeReportRow,
  findEarlierReport,
  findReport,
  findReportableMessage,
  findReportEvidence,
  findReportFacts,
  findReportPage,
  recordReportView,
  suspendUser,
  upsertReport,
  type ReportRow,
  type ReportSnapshot,
} from './reports.queries';

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
  const message = await findReportableMessage(deps.db, userId, input.messageId);
  if (!message) throw new TRPCError({ code: 'NOT_FOUND', message: MESSAGE_TEXTS.messageNotFound });

  const earlier = await findEarlierReport(deps.db, userId, message.id);
  const reportId = earlier?.id ?? randomUUID();
  // the copy first: a report row never points at a file that is not there
  let evidence: { evidence_key: string; evidence_type: string; evidence_kind: string; evidence_name: string } | null = null;
  if (message.storage_key && message.content_type && message.kind) {
    const key = reportEvidenceKey(reportId, randomUUID());
    const source = await deps.storage.get(message.storage_key);
    await deps.storage.put(key, source.stream, message.content_type);
    evidence = { evidence_key: key, evidence_type: message.content_type, evidence_kind: message.kind, evidence_name: message.original_filename ?? 'file' };
  }
  const snapshot: ReportSnapshot = { content: message.content, evidence_key: null, evidence_type: null, evidence_kind: null, evidence_name: null, ...evidence };
  const row = await upsertReport(deps.db, { id: reportId, message_id: message.id, reporter_id: userId, sender_id: message.sender_id, reason: input.reason, ...snapshot });
  if (earlier?.evidence_key && earlier.evidence_key !== evidence?.evidence_key) {
    await deps.storage.delete(earlier.evidence_key).catch((error: unknown) => deps.log.warn({ err: error }, 'could not delete a replaced report copy'));
  }
  return { id: row.id };
}

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
    reporter: personOf(r, 'rp')!,
    sender: personOf(r, 'sp'),
  };
}

/** The reporter's or the sender's card from their prefixed columns; null when the profile is gone (a deleted account). */
function personOf(r: ReportRow, a: 'rp' | 'sp'): ChatPartnerDto | null {
  const [id, username, displayName] = [r[`${a}_id`], r[`${a}_username`], r[`${a}_display_name`]];
  if (!id || !username || displayName === null) return null;
  return { id, username, displayName, avatarUrl: r[`${a}_avatar_url`], isVerified: Boolean(r[`${a}_verified_badge`]), isPremium: Boolean(r[`${a}_is_premium`]) };
}

/** Admins: reports by status, newest first, one statement per page (the list shows no evidence: opening a report does, and is logged). */
export async function listReports(deps: Pick<AppDeps, 'db'>, input: AdminReportsInput): Promise<{ reports: MessageReportDto[]; nextCursor: string | null }> {
  const cursor = decodeCursor(input.cursor);
  const rows = await findReportPage(deps.db, input.status, cursor, REPORTS_PAGE_SIZE + 1);
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
    const row = await findReport(trx, input.id);
    if (!row) throw reportNotFound();
    return { ...toReportDto(row), views: await recordReportView(trx, row.id, adminId) };
  });
}

/** Admins: the report's copy of the reported file, for the media route (null: no such report or copy). */
export async function reportEvidence(deps: Pick<AppDeps, 'db'>, reportId: string) {
  const row = await findReportEvidence(deps.db, reportId);
  return row?.evidence_key && row.evidence_type ? { id: row.id, storageKey: row.evidence_key, contentType: row.evidence_type, name: row.evidence_name ?? 'file' } : null;
}

async function close(deps: Pick<AppDeps, 'db'>, adminId: string, id: string, resolution: ReportResolution) {
  const row = await closeReportRow(deps.db, id, adminId, resolution);
  if (!row) throw reportNotFound();
  return row;
}

export async function closeReport(deps: Pick<AppDeps, 'db'>, adminId: string, input: CloseReportInput): Promise<{ id: string; status: 'closed' }> {
  const row = await close(deps, adminId, input.id, 'dismissed');
  return { id: row.id, status: 'closed' };
}

async function reportFacts(deps: Pick<AppDeps, 'db'>, id: string) {
  const row = await findReportFacts(deps.db, id);
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
    await suspendUser(trx, senderId);
    await closeReportRow(trx, report.id, adminId, 'account-suspended');
    return invalidateUserSessions(trx, senderId);
  });
  if (sessionIds.length) await deps.realtime.disconnectSessions(sessionIds);
  await deps.realtime.forgetSessions({ userIds: [senderId] });
  return { id: report.id, message: MESSAGE_TEXTS.reportSenderSuspended };
}
