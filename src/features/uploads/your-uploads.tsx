import { AlertTriangle, FileText, Film, ImageIcon, Music, RotateCw, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { MediaKind } from '../../../common/enums';
import { unfinishedUploadName } from '../../../common/upload-dtos';
import { POST_TEXTS, UPLOAD_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { formatLongDateTime, formatRelativeTime, isoString } from '../../lib/format';
import { notify } from '../../lib/toast';
import { isServerError, trpc, type RouterOutputs } from '../../lib/trpc';
import { usePendingPosts, useProcessingProgress } from './pending-posts';

type Unfinished = RouterOutputs['uploads']['unfinished'][number];

const KIND_ICON: Record<MediaKind, typeof ImageIcon> = { image: ImageIcon, video: Film, audio: Music, pdf: FileText, document: FileText };

/**
 * 'Your uploads' under the form: the creator's posts still being processed ('Publishing' /
 * 'Processing...', or a draft being saved) and those whose processing failed, with the reason,
 * Retry (the worker tries again) and Delete. Empty: nothing is shown.
 */
export function YourUploads() {
  const unfinished = trpc.uploads.unfinished.useQuery(undefined, { refetchOnMount: 'always' });
  const pending = usePendingPosts();
  const rows = unfinished.data ?? [];
  // a published upload from this tab that the list has not caught up with yet
  // (one whose bytes still travel is the form's progress bar, not a row)
  const extra = pending.filter((p) => p.uploadPercent === null && !rows.some((r) => r.optimisticId === p.optimisticId || r.postId === p.postId));

  if (rows.length === 0 && extra.length === 0) return null;

  return (
    <section aria-labelledby="your-uploads-heading" className="flex flex-col gap-3">
      <h2 id="your-uploads-heading" className="text-lg font-semibold tracking-tight">
        Your uploads
      </h2>
      <ul className="flex flex-col gap-3">
        {extra.map((p) => (
          <li key={p.optimisticId}>
            <ProcessingRow name={unfinishedUploadName(p)} kind={p.mediaKind} postId={p.postId} target="published" createdAt={p.createdAt} />
          </li>
        ))}
        {rows.map((row) => (
          <li key={row.postId}>
            {row.status === 'failed' ? (
              <FailedRow row={row} />
            ) : (
              <ProcessingRow name={unfinishedUploadName(row)} kind={row.mediaKind} postId={row.postId} target={row.targetStatus} createdAt={row.createdAt} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function RowShell({ kind, label, failed, children }: { kind: MediaKind | null; label: string; failed?: boolean; children: ReactNode }) {
  const Icon = kind ? KIND_ICON[kind] : FileText;
  return (
    <article
      aria-label={label}
      className={cn(
        'flex gap-3 rounded-card border bg-surface p-3 shadow-xl shadow-black/20 md:p-4',
        failed ? 'border-danger/40' : 'border-accent/30',
      )}
    >
      <span
        className={cn(
          'flex size-11 shrink-0 items-center justify-center rounded-xl ring-1',
          failed ? 'bg-danger/10 text-danger ring-danger/30' : 'bg-accent-soft text-violet-200 ring-accent/30',
        )}
      >
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1">{children}</div>
    </article>
  );
}

function When({ date }: { date: Date }) {
  return (
    <time dateTime={isoString(date)} title={formatLongDateTime(date)} className="shrink-0 text-xs whitespace-nowrap text-subtle">
      {formatRelativeTime(date)}
    </time>
  );
}

function ProcessingRow({
  name,
  kind,
  postId,
  target,
  createdAt,
}: {
  name: string;
  kind: MediaKind | null;
  postId: string | null;
  target: 'draft' | 'published' | 'scheduled';
  createdAt: Date;
}) {
  const percent = useProcessingProgress(postId);
  const title = target === 'published' ? POST_TEXTS.publishing.title : target === 'scheduled' ? 'Scheduling' : 'Saving draft';
  return (
    <RowShell kind={kind} label={name}>
      <div className="flex min-w-0 items-center gap-2">
        <span className="truncate text-sm font-semibold text-foreground" title={name}>
          {name}
        </span>
        <When date={createdAt} />
      </div>
      <p className="flex items-center gap-2 text-sm" role="status">
        <Spinner className="size-3.5 text-violet-200" />
        <span className="font-medium text-foreground">{title}</span>
        <span className="text-muted">
          {POST_TEXTS.publishing.description}
          {percent !== null ? <span className="tabular-nums"> {percent}%</span> : null}
        </span>
      </p>
    </RowShell>
  );
}

function FailedRow({ row }: { row: Unfinished }) {
  const utils = trpc.useUtils();
  const retry = trpc.posts.retryProcessing.useMutation();
  const del = trpc.posts.delete.useMutation();
  const [busy, setBusy] = useState<'retry' | 'delete' | null>(null);
  const name = unfinishedUploadName(row);
  const failure = (error: unknown, fallback: string) =>
    notify.error({ title: 'Error', description: isServerError(error) && error.message ? error.message : fallback });

  const onRetry = async () => {
    setBusy('retry');
    try {
      const answer = await retry.mutateAsync({ postId: row.postId });
      // saved, but its processing waits for the server's queue to be back
      if (answer.notice) notify.info(answer.notice);
      await utils.uploads.unfinished.invalidate();
    } catch (error) {
      failure(error, UPLOAD_TEXTS.processingFailed);
    } finally {
      setBusy(null);
    }
  };

  const onDelete = async () => {
    setBusy('delete');
    try {
      await del.mutateAsync({ postId: row.postId });
      // A refetch already under way (e.g. after a post:failed event) began before the delete and
      // would put the row back: cancel it, drop the row, then reconcile with the server.
      await utils.uploads.unfinished.cancel();
      utils.uploads.unfinished.setData(undefined, (list) => list?.filter((u) => u.postId !== row.postId));
      void utils.uploads.unfinished.invalidate();
      notify.success(POST_TEXTS.deleted);
    } catch (error) {
      failure(error, POST_TEXTS.deleteFailed.description);
    } finally {
      setBusy(null);
    }
  };

  return (
    <RowShell kind={row.mediaKind} label={name} failed>
      <div className="flex min-w-0 items-center gap-2">
        <span className="truncate text-sm font-semibold text-foreground" title={name}>
          {name}
        </span>
        <When date={row.createdAt} />
      </div>
      <p className="flex items-start gap-2 text-sm">
        <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-danger" />
        <span>
          <span className="font-medium text-danger">Failed: </span>
          <span className="text-foreground/90" data-testid="failure-reason">
            {row.failureReason ?? UPLOAD_TEXTS.processingFailed}
          </span>
        </span>
      </p>
      <div className="mt-1 flex flex-wrap justify-end gap-2">
        <Button size="sm" variant="secondary" onClick={() => void onRetry()} loading={busy === 'retry'} disabled={busy !== null} aria-label={`Retry ${name}`}>
          {busy === 'retry' ? null : <RotateCw aria-hidden="true" className="size-4" />}
          Retry
        </Button>
        <ConfirmDialog
          title={POST_TEXTS.deleteUploadConfirm.title}
          description={POST_TEXTS.deleteUploadConfirm.description(name)}
          confirmLabel={POST_TEXTS.deleteUploadConfirm.confirm}
          onConfirm={onDelete}
          trigger={
            <Button size="sm" variant="ghost" loading={busy === 'delete'} disabled={busy !== null} aria-label={`Delete ${name}`}>
              {busy === 'delete' ? null : <Trash2 aria-hidden="true" className="size-4" />}
              Delete
            </Button>
          }
        />
      </div>
    </RowShell>
  );
}
