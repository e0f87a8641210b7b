import { sql } from 'kysely';
import type { DB } from '../../../core/db/kysely';
import type { ReportResolution } from '../../../core/db/schema';
import { isoMicro } from './messages.queries';
import { prefixedPersonColumns } from '../../../domain/people/person-columns';

/** The SQL of message reports (reports.service.ts): one statement per page, keyset on (created_at, id). */

/** A message sent TO the reporter, with its attachment's stored file when it is ready. */
export function findReportableMessage(db: DB, reporterId: string, messageId: string) {
  return db
    .selectFrom('messages as m')
    .leftJoin('message_attachments as a', (j) => j.onRef('a.id', '=', 'm.attachment_id').on('a.status', '=', 'ready'))
    .select(['m.id', 'm.sender_id', 'm.content', 'a.storage_key', 'a.content_type', 'a.kind', 'a.original_filename'])
    .where('m.id', '=', messageId)
    .where('m.recipient_id', '=', reporterId)
    .executeTakeFirst();
}

export function findEarlierReport(db: DB, reporterId: string, messageId: string) {
  return db
    .selectFrom('message_reports')
    .select(['id', 'evidence_key'])
    .where('message_id', '=', messageId)
    .where('reporter_id', '=', reporterId)
    .executeTakeFirst();
}

export type ReportSnapshot = {
  content: string | null;
  evidence_key: string | null;
  evidence_type: string | null;
  evidence_kind: string | null;
  evidence_name: string | null;
};

/** One report per user per message: reporting again replaces the reason and the snapshot, and reopens it. */
export function upsertReport(
  db: DB,
  report: { id: string; message_id: string; reporter_id: string; sender_id: string; reason: string } & ReportSnapshot,
) {
  const { id: _id, message_id: _m, reporter_id: _r, sender_id: _s, ...replaced } = report;
  return db
    .insertInto('message_reports')
    .values(report)
    .onConflict((oc) =>
      oc.columns(['message_id', 'reporter_id']).doUpdateSet({
        ...replaced,
        status: 'open',
        resolution: null,
        closed_at: null,
        closed_by: null,
        updated_at: new Date(),
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** A profile's card columns under its alias's prefix (`rp_username`): the reporter's and the sender's. */
/** Reports with both profiles (the sender's may be gone), for the admins' list and report page. */
function selectReports(db: DB) {
  return db
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
      ...prefixedPersonColumns('rp'),
      ...prefixedPersonColumns('sp'),
    ]);
}

export type ReportRow = Awaited<ReturnType<ReturnType<typeof selectReports>['execute']>>[number];

/** One page of reports by status, newest first, older than the cursor. */
export function findReportPage(db: DB, status: 'open' | 'closed', before: { at: string; id: string } | null, limit: number) {
  return selectReports(db)
    .where('r.status', '=', status)
    .$if(before !== null, (q) => q.where(sql<boolean>`(r.created_at, r.id) < (${before!.at}::timestamptz, ${before!.id}::uuid)`))
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
}

export function findReport(db: DB, id: string) {
  return selectReports(db).where('r.id', '=', id).executeTakeFirst();
}

/** Writes who opened the report (report_views) and answers how many openings it has now. */
export async function recordReportView(trx: DB, reportId: string, adminId: string): Promise<number> {
  await trx.insertInto('report_views').values({ report_id: reportId, admin_id: adminId }).execute();
  const { n } = await trx.selectFrom('report_views').select((eb) => eb.fn.countAll<string>().as('n')).where('report_id', '=', reportId).executeTakeFirstOrThrow();
  return Number(n);
}

export function findReportEvidence(db: DB, reportId: string) {
  return db.selectFrom('message_reports').select(['id', 'evidence_key', 'evidence_type', 'evidence_name']).where('id', '=', reportId).executeTakeFirst();
}

export function findReportFacts(db: DB, reportId: string) {
  return db.selectFrom('message_reports').select(['id', 'message_id', 'sender_id']).where('id', '=', reportId).executeTakeFirst();
}

/** Closes a report (open or closed already) with the admin's resolution; undefined when unknown. */
export function closeReportRow(db: DB, id: string, adminId: string, resolution: ReportResolution) {
  return db
    .updateTable('message_reports')
    .set({ status: 'closed', resolution, closed_at: new Date(), closed_by: adminId, updated_at: new Date() })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

/** Marks the user suspended (the first suspension's time stays). */
export async function suspendUser(trx: DB, userId: string): Promise<void> {
  await trx.updateTable('users').set({ suspended_at: new Date() }).where('id', '=', userId).where('suspended_at', 'is', null).execute();
}
