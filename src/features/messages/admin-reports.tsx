import { Link } from '@tanstack/react-router';
import { Flag } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ChatPartnerDto, MessageReportDto } from '../../../common/message-dtos';
import { SENTINEL_VISIBLE_RATIO } from '../../../common/messages';
import { AdminPage } from '../../components/admin-page';
import { EmptyState } from '../../components/empty-state';
import { LoadMoreSentinel } from '../../components/load-more-sentinel';
import { LoadingPlaceholder } from '../../components/load-states';
import { Avatar } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { formatLongDateTime } from '../../lib/format';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';
import { reportsOptions } from './messages-queries';
import { serverMessage } from './server-message';


/**
 * /admin/reports (issue 12 §6, issue 23 §8): the open reports of messages, newest first, each
 * with who reported whom and the reason. Opening one (logged on the server) shows what was
 * reported, as it was: the text and the file's copy. From there: remove the message, suspend the
 * sender (both confirm first), or close the report. Admins only (the server refuses anyone else).
 */
export function AdminReports() {
  const reports = trpc.messages.adminReports.useInfiniteQuery({ status: 'open' }, reportsOptions);
  const utils = trpc.useUtils();
  const close = trpc.messages.closeReport.useMutation({
    onSuccess: () => {
      notify.success({ title: 'Report closed' });
      void utils.messages.adminReports.invalidate();
    },
    onError: (error) => notify.error({ title: 'Error', description: serverMessage(error, 'Failed to close the report') }),
  });
  const rows = reports.data?.pages.flatMap((p) => p.reports) ?? [];

  useEffect(() => {
    if (reports.isError && errorCode(reports.error) !== 'FORBIDDEN') notify.error({ title: 'Error', description: 'Failed to load reports' });
  }, [reports.isError, reports.error]);

  return (
    <AdminPage
      title="Reports"
      description="Messages people reported, newest first. Open one to see what was reported; each opening is logged."
      forbidden={reports.isError && errorCode(reports.error) === 'FORBIDDEN'}
      operators="moderators"
    >
      {!reports.data ? (
        reports.isError ? (
          <Button variant="secondary" onClick={() => void reports.refetch()} className="self-start">
            Try again
          </Button>
        ) : (
          <LoadingPlaceholder label="Loading reports" rowClassName="h-32 w-full rounded-card" className="gap-3" />
        )
      ) : rows.length === 0 ? (
        <EmptyState icon={Flag}>No open reports</EmptyState>
      ) : (
        <ul aria-label="Open reports" className="flex flex-col gap-3">
          {rows.map((report) => (
            <li key={report.id}>
              <ReportCard report={report} closing={close.isPending && close.variables?.id === report.id} onClose={() => close.mutate({ id: report.id })} />
            </li>
          ))}
        </ul>
      )}
      <LoadMoreSentinel
        enabled={reports.hasNextPage && !reports.isFetchingNextPage}
        onVisible={() => void reports.fetchNextPage()}
        itemCount={rows.length}
        testId="reports-sentinel"
        visibleRatio={SENTINEL_VISIBLE_RATIO}
        end={!reports.hasNextPage}
      />
    </AdminPage>
  );
}

function Person({ label, person }: { label: string; person: ChatPartnerDto | null }) {
  if (!person) return <span className="text-sm text-subtle">{label}: deleted account</span>;
  const name = person.displayName || person.username;
  return (
    <span className="flex min-w-0 items-center gap-2 text-sm">
      <span className="whitespace-nowrap text-subtle">{label}:</span>
      <Avatar src={person.avatarUrl} name={name} size="sm" ring={false} />
      <Link to="/$username" params={{ username: person.username }} className="truncate font-medium hover:underline">
        {name} <span className="text-subtle">@{person.username}</span>
      </Link>
    </span>
  );
}

function ReportCard({ report, closing, onClose }: { report: MessageReportDto; closing: boolean; onClose: () => void }) {
  const utils = trpc.useUtils();
  const [opened, setOpened] = useState<MessageReportDto | null>(null);
  const [confirming, setConfirming] = useState<'remove' | 'suspend' | null>(null);
  const open = trpc.messages.openReport.useMutation({
    onSuccess: setOpened,
    onError: (error) => notify.error({ title: 'Error', description: serverMessage(error, 'Failed to open the report') }),
  });
  const done = { onSuccess: ({ message }: { message: string }) => {
    notify.success({ title: message });
    void utils.messages.adminReports.invalidate();
  } };
  const remove = trpc.messages.removeReportedMessage.useMutation(done);
  const suspend = trpc.messages.suspendReportedSender.useMutation(done);
  const act = async () => {
    try {
      if (confirming === 'remove') await remove.mutateAsync({ id: report.id });
      if (confirming === 'suspend') await suspend.mutateAsync({ id: report.id });
    } catch (error) {
      notify.error({ title: 'Error', description: serverMessage(error, 'Failed to act on the report') });
    }
  };
  return (
    <article data-testid="report" className="flex flex-col gap-3 rounded-card border border-border bg-surface p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <time dateTime={report.createdAt} className="text-xs text-subtle">
          {formatLongDateTime(report.createdAt)}
        </time>
        <div className="flex flex-wrap gap-2">
          {!opened && (
            <Button size="sm" loading={open.isPending} onClick={() => open.mutate({ id: report.id })}>
              Open report
            </Button>
          )}
          <Button size="sm" variant="secondary" loading={closing} onClick={onClose}>
            Close report
          </Button>
        </div>
      </div>
      <div className="flex flex-col gap-1.5 sm:flex-row sm:gap-6">
        <Person label="Reported by" person={report.reporter} />
        <Person label="Sender" person={report.sender} />
      </div>
      <p className="text-sm">
        <span className="font-semibold">Reason: </span>
        <span className="break-words text-muted">{report.reason}</span>
      </p>
      {opened && (
        <div data-testid="report-evidence" className="flex flex-col gap-3">
          <blockquote className="rounded-xl border-l-2 border-rose-400/60 bg-surface-raised px-3 py-2 text-sm break-words whitespace-pre-wrap">
            {opened.content ?? <span className="italic text-subtle">No text</span>}
          </blockquote>
          {opened.evidence && <Evidence evidence={opened.evidence} />}
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="secondary" disabled={!opened.messageId} onClick={() => setConfirming('remove')}>
              {opened.messageId ? 'Remove message' : 'Message already deleted'}
            </Button>
            <Button size="sm" variant="danger" disabled={!opened.sender} onClick={() => setConfirming('suspend')}>
              Suspend account
            </Button>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(next) => (next ? undefined : setConfirming(null))}
        title={confirming === 'suspend' ? 'Suspend this account?' : 'Remove this message?'}
        description={
          confirming === 'suspend'
            ? 'They are signed out everywhere at once and cannot sign in again. The report is closed.'
            : 'It is removed from the conversation for both people. The report keeps its copy and is closed.'
        }
        confirmLabel={confirming === 'suspend' ? 'Suspend account' : 'Remove message'}
        onConfirm={act}
      />
    </article>
  );
}

/** The report's copy of the reported file (served to admins only). */
function Evidence({ evidence }: { evidence: NonNullable<MessageReportDto['evidence']> }) {
  if (evidence.kind === 'image') return <img src={evidence.url} alt={`Reported file ${evidence.name}`} className="max-h-80 w-auto self-start rounded-xl" />;
  if (evidence.kind === 'video') return <video src={evidence.url} controls className="max-h-80 w-full rounded-xl" aria-label={`Reported video ${evidence.name}`} />;
  if (evidence.kind === 'audio') return <audio src={evidence.url} controls aria-label={`Reported audio ${evidence.name}`} />;
  return (
    <a href={evidence.url} download={evidence.name} className="text-sm text-accent underline">
      Download the reported file ({evidence.name})
    </a>
  );
}
