import { Link } from '@tanstack/react-router';
import { CircleCheck, CircleHelp, CircleX, UserRoundSearch } from 'lucide-react';
import type { ReactNode } from 'react';
import { TRACE_TEXTS, type LeakTraceDto } from '../../../common/forensics';
import { formatFileSize } from '../../../common/file-size';
import { Badge } from '../../components/ui/badge';
import { Spinner } from '../../components/ui/spinner';
import { formatLongDateTime, isoString } from '../../lib/format';
import { confidencePercent, shortHash } from './trace-words';

const pending = (trace: LeakTraceDto) => trace.status === 'queued' || trace.status === 'running';

function StatusBadge({ trace }: { trace: LeakTraceDto }) {
  const words = TRACE_TEXTS.status[trace.status];
  if (pending(trace)) {
    return (
      <Badge variant="accent">
        <Spinner className="size-3" />
        {words}
      </Badge>
    );
  }
  return <Badge variant={trace.status === 'failed' ? 'default' : 'accent'}>{words}</Badge>;
}

/** The verdict in words: unmarked, why nobody could be named, or the buyer (linked to their profile) and how sure. */
function Verdict({ trace }: { trace: LeakTraceDto }) {
  const v = trace.verdict;
  let icon: ReactNode = null;
  let words: ReactNode;
  if (trace.status === 'failed') {
    icon = <CircleX aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-rose-300" />;
    words = TRACE_TEXTS.failed;
  } else if (!v) {
    words = <span className="text-subtle">The answer appears here when the file has been read.</span>;
  } else if (v.kind === 'unmarked') {
    icon = <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-subtle" />;
    words = TRACE_TEXTS.unmarked;
  } else if (v.kind === 'unknown') {
    icon = <CircleHelp aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-300" />;
    words = (
      <>
        <span className="font-semibold text-foreground">{TRACE_TEXTS.unknown}: </span>
        <span className="break-words">{v.reason}</span>
      </>
    );
  } else {
    const { username, displayName } = v.buyer;
    icon = <UserRoundSearch aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-violet-300" />;
    words = (
      <>
        <span>{TRACE_TEXTS.identified} </span>
        {username ? (
          <Link to="/$username" params={{ username }} className="font-semibold text-violet-300 underline-offset-4 hover:underline">
            {displayName || username} <span className="font-normal">@{username}</span>
          </Link>
        ) : (
          <span className="font-semibold">a deleted account</span>
        )}
        <span>, confidence {confidencePercent(v.confidence)}.</span>
        <details className="mt-1 text-xs text-subtle">
          <summary className="cursor-pointer">Evidence</summary>
          <p className="mt-1 break-words">{v.evidence}</p>
        </details>
      </>
    );
  }
  return (
    // announced when a pending trace gets its answer (the region is there from the start)
    <div aria-live="polite" className="flex items-start gap-2 text-sm text-muted">
      {icon}
      <div className="min-w-0">{words}</div>
    </div>
  );
}

/**
 * One trace of the log: when, who asked, the file (size and short hash), its status and its
 * verdict. `post` (the admin log) adds a link to the post's trace screen.
 */
export function TraceRow({ trace, post }: { trace: LeakTraceDto; post?: ReactNode }) {
  return (
    <article data-testid="trace" className="flex flex-col gap-2.5 rounded-card border border-border bg-surface p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <time dateTime={isoString(trace.createdAt)} className="text-xs text-subtle">
          {formatLongDateTime(trace.createdAt)}
        </time>
        <StatusBadge trace={trace} />
      </div>
      {post}
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-subtle">
        <span>
          Asked by{' '}
          {trace.requestedBy ? (
            <Link to="/$username" params={{ username: trace.requestedBy }} className="text-muted underline-offset-4 hover:underline">
              @{trace.requestedBy}
            </Link>
          ) : (
            'a deleted account'
          )}
        </span>
        <span>
          File {formatFileSize(trace.fileBytes)} ·{' '}
          <abbr title={`SHA-256 ${trace.fileSha256}`} className="font-mono no-underline">
            {shortHash(trace.fileSha256)}
          </abbr>
        </span>
      </p>
      <Verdict trace={trace} />
    </article>
  );
}
