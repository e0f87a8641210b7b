import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import type { MessageReportDto } from '../../../common/message-dtos';
import type { AdminReportsInput, CloseReportInput, ReportMessageInput } from '../../../common/message-schemas';
import { isUuid } from '../../../common/post-schemas';
import { MESSAGE_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import { decodeCursor, encodeCursor } from './messages.dto';
import { isoMicro } from './messages.queries';

const REPORTS_PAGE_SIZE = 20;

/**
 * Reports a message sent TO the caller (one report per user per message: reporting again
 * replaces the reason and reopens it). The text is kept as it was when reported, so an edit or a
 * deletion afterwards hides nothing from the admins.
 */
export async function reportMessage(deps: Pick<AppDeps, 'db'>, userId: string, input: ReportMessageInput): Promise<{ id: string }> {
  const message = isUuid(input.messageId)
    ? await deps.db
        .selectFrom('messages')
        .select(['id', 'sender_id', 'content'])
        .where('id', '=', input.messageId)
        .where('recipient_id', '=', userId)
        .executeTakeFirst()
    : undefined;
  if (!message) throw new TRPCError({ code: 'NOT_FOUND', message: MESSAGE_TEXTS.messageNotFound });
  const row = await deps.db
    .insertInto('message_reports')
    .values({ message_id: message.id, reporter_id: userId, sender_id: message.sender_id, content: message.content, reason: input.reason })
    .onConflict((oc) =>
      oc.columns(['message_id', 'reporter_id']).doUpdateSet({
        reason: input.reason,
        content: message.content,
        status: 'open',
        closed_at: null,
        closed_by: null,
        updated_at: new Date(),
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

/** Admins: reports by status, newest first, one statement per page. */
export async function listReports(deps: Pick<AppDeps, 'db'>, input: AdminReportsInput): Promise<{ reports: MessageReportDto[]; nextCursor: string | null }> {
  const cursor = decodeCursor(input.cursor);
  const rows = await deps.db
    .selectFrom('message_reports as r')
    .innerJoin('profiles as rp', 'rp.id', 'r.reporter_id')
    .leftJoin('profiles as sp', 'sp.id', 'r.sender_id')
    .select([
      'r.id',
      'r.reason',
      'r.status',
      'r.message_id',
      'r.content',
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
    ])
    .where('r.status', '=', input.status)
    .$if(cursor !== null, (q) => q.where(sql<boolean>`(r.created_at, r.id) < (${cursor!.at}::timestamptz, ${cursor!.id}::uuid)`))
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(REPORTS_PAGE_SIZE + 1)
    .execute();
  const page = rows.slice(0, REPORTS_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    reports: page.map((r) => ({
      id: r.id,
      reason: r.reason,
      status: r.status,
      createdAt: r.created_at,
      closedAt: r.closed_at,
      messageId: r.message_id,
      content: r.content,
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
    })),
    nextCursor: rows.length > REPORTS_PAGE_SIZE && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

export async function closeReport(deps: Pick<AppDeps, 'db'>, adminId: string, input: CloseReportInput): Promise<{ id: string; status: 'closed' }> {
  const row = isUuid(input.id)
    ? await deps.db
        .updateTable('message_reports')
        .set({ status: 'closed', closed_at: new Date(), closed_by: adminId, updated_at: new Date() })
        .where('id', '=', input.id)
        .returning('id')
        .executeTakeFirst()
    : undefined;
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: MESSAGE_TEXTS.reportNotFound });
  return { id: row.id, status: 'closed' };
}
