import { Link } from '@tanstack/react-router';
import { ArrowLeft, FileText, FileX, Fingerprint, ShieldAlert } from 'lucide-react';
import { TRACE_TEXTS } from '../../../common/forensics';
import { postName } from '../../../common/post-name';
import { DeadEnd } from '../../components/dead-end';
import { EmptyState } from '../../components/empty-state';
import { LoadError, LoadingPlaceholder } from '../../components/load-states';
import { buttonClasses } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { usePageTitle } from '../../lib/page-title';
import { errorCode, trpc } from '../../lib/trpc';
import { tracedPostOptions, tracesOptions } from './forensics-queries';
import { LeakUpload } from './leak-upload';
import { TraceRow } from './trace-row';

/**
 * /post/$id/trace (issue 49 item 5, docs/media.md "Tracing a leak"): the post's creator, or an
 * admin, uploads a copy found elsewhere and reads what the trace says of it. The screen is decided
 * by forensics.traces, which checks who may ask (403 names who may; 404 no such post); the upload
 * form shows only to those it lets through. Traces waiting or running are asked for again until
 * they have their answer (tracesOptions).
 */
export function TraceScreen({ postId }: { postId: string }) {
  const traces = trpc.forensics.traces.useQuery({ postId }, tracesOptions);
  const code = errorCode(traces.error);
  usePageTitle(code === 'NOT_FOUND' ? 'Post not found' : TRACE_TEXTS.title);

  let body;
  if (code === 'NOT_FOUND') {
    body = <DeadEnd icon={FileX} title="Post not found" description="This post does not exist, or it was deleted." />;
  } else if (code === 'FORBIDDEN') {
    body = <DeadEnd icon={ShieldAlert} title="Not allowed" description={`${TRACE_TEXTS.notAllowed}.`} />;
  } else if (traces.isError && !traces.data) {
    body = <LoadError message={TRACE_TEXTS.loadFailed} onRetry={() => void traces.refetch()} />;
  } else {
    body = (
      <>
        <header className="flex flex-col gap-4">
          <h1 className="text-3xl font-bold tracking-tight">{TRACE_TEXTS.title}</h1>
          <TracedPost postId={postId} />
        </header>
        {traces.data ? (
          <>
            <WhatItSays />
            <LeakUpload postId={postId} />
            <section aria-labelledby="trace-log-title" className="flex flex-col gap-3">
              <h2 id="trace-log-title" className="text-lg font-semibold">
                {TRACE_TEXTS.log}
              </h2>
              {traces.data.length === 0 ? (
                <EmptyState icon={Fingerprint}>{TRACE_TEXTS.noTraces}</EmptyState>
              ) : (
                <ul aria-labelledby="trace-log-title" className="flex flex-col gap-3">
                  {traces.data.map((trace) => (
                    <li key={trace.id}>
                      <TraceRow trace={trace} />
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        ) : (
          <LoadingPlaceholder label={TRACE_TEXTS.loading} className="gap-4">
            <Skeleton className="h-28 w-full rounded-card" />
            <Skeleton className="h-40 w-full rounded-card" />
            <Skeleton className="h-24 w-full rounded-card" />
          </LoadingPlaceholder>
        )}
      </>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 pt-6 pb-10 md:px-6 md:pt-8">
      <div>
        <Link to="/post/$id" params={{ id: postId }} className={buttonClasses({ variant: 'ghost', size: 'sm', className: '-ml-2' })}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to the post
        </Link>
      </div>
      {body}
    </div>
  );
}

/** The post the traces are about: its picture and name, linking to it. */
function TracedPost({ postId }: { postId: string }) {
  const post = trpc.posts.byId.useQuery({ id: postId }, tracedPostOptions);
  if (!post.data) {
    // an admin may trace a post they cannot open (a draft): the screen goes on without its card
    if (post.isError) return null;
    return (
      <div aria-hidden="true" className="flex items-center gap-3 rounded-card border border-border bg-surface p-3">
        <Skeleton className="size-16 shrink-0 rounded-xl" />
        <div className="flex flex-1 flex-col gap-2">
          <Skeleton className="h-4 w-48" />
          <Skeleton className="h-3 w-32" />
        </div>
      </div>
    );
  }
  const media = post.data.media;
  const picture = media?.thumbUrl ?? media?.posterUrl ?? media?.previewUrl ?? null;
  const name = postName(post.data);
  return (
    <Link
      to="/post/$id"
      params={{ id: postId }}
      data-testid="traced-post"
      className="flex items-center gap-3 rounded-card border border-border bg-surface p-3 transition-colors hover:bg-surface-hover"
    >
      {picture ? (
        <img src={picture} alt="" width={64} height={64} className="size-16 shrink-0 rounded-xl object-cover" />
      ) : (
        <span className="flex size-16 shrink-0 items-center justify-center rounded-xl bg-surface-raised text-subtle">
          <FileText aria-hidden="true" className="size-6" />
        </span>
      )}
      <span className="min-w-0">
        <span className="block truncate font-semibold text-foreground">{name}</span>
        <span className="block truncate text-sm text-muted">
          {post.data.isPremium || post.data.unlock ? 'Paid' : 'Free'} post by @{post.data.creator.username}
        </span>
      </span>
    </Link>
  );
}

/** What a trace can and cannot say, in a few plain lines (docs/media.md has the whole of it). */
function WhatItSays() {
  return (
    <section aria-label="What a trace can say" className="flex flex-col gap-4 rounded-card border border-border bg-surface p-4 text-sm">
      <p className="text-muted">{TRACE_TEXTS.intro}</p>
      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <h2 className="font-semibold text-foreground">It can tell</h2>
          <ul className="mt-1.5 list-disc space-y-1 pl-5 text-muted">
            {TRACE_TEXTS.canSay.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="font-semibold text-foreground">It cannot tell</h2>
          <ul className="mt-1.5 list-disc space-y-1 pl-5 text-muted">
            {TRACE_TEXTS.cannotSay.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
