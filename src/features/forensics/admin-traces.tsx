import { Link } from '@tanstack/react-router';
import { ChevronRight, Fingerprint } from 'lucide-react';
import { useEffect } from 'react';
import { TRACE_TEXTS, type LeakTraceDto } from '../../../common/forensics';
import { AdminPage } from '../../components/admin-page';
import { EmptyState } from '../../components/empty-state';
import { LoadError, LoadingPlaceholder } from '../../components/load-states';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';
import { tracesOptions } from './forensics-queries';
import { TraceRow } from './trace-row';

/** The post as the log names it: its title, else whose it is (as common/post-name.ts names an untitled post). */
function tracedPostName(post: LeakTraceDto['post']): string {
  return post.title?.trim() || (post.creatorUsername ? `Post by @${post.creatorUsername}` : 'A deleted post');
}

/**
 * /admin/traces: the last 50 leak traces of every post (forensics.recent), newest first, each
 * leading to its post's Trace a leak screen. Admins only (the server refuses anyone else).
 */
export function AdminTraces() {
  const recent = trpc.forensics.recent.useQuery(undefined, tracesOptions);
  const forbidden = errorCode(recent.error) === 'FORBIDDEN';
  useEffect(() => {
    if (recent.isError && !forbidden) notify.error({ title: 'Error', description: TRACE_TEXTS.loadFailed });
  }, [recent.isError, forbidden]);

  let body;
  if (!recent.data) {
    body = recent.isError ? (
      <LoadError message={TRACE_TEXTS.loadFailed} onRetry={() => void recent.refetch()} />
    ) : (
      <LoadingPlaceholder label={TRACE_TEXTS.loading} rowClassName="h-32 w-full rounded-card" className="gap-3" />
    );
  } else if (recent.data.length === 0) {
    body = <EmptyState icon={Fingerprint}>{TRACE_TEXTS.admin.empty}</EmptyState>;
  } else {
    body = (
      <ul aria-label={TRACE_TEXTS.admin.title} className="flex flex-col gap-3">
        {recent.data.map((trace) => (
          <li key={trace.id}>
            <TraceRow
              trace={trace}
              post={
                <Link
                  to="/post/$id/trace"
                  params={{ id: trace.postId }}
                  aria-label={`Traces of ${tracedPostName(trace.post)}`}
                  className="flex min-w-0 max-w-full items-center gap-1 self-start text-sm font-medium text-violet-300 underline-offset-4 hover:underline"
                >
                  <span className="truncate">{tracedPostName(trace.post)}</span>
                  <ChevronRight aria-hidden="true" className="size-4 shrink-0" />
                </Link>
              }
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <AdminPage title={TRACE_TEXTS.admin.title} description={TRACE_TEXTS.admin.description} forbidden={forbidden} operators="admins">
      {body}
    </AdminPage>
  );
}
