import { lazy, Suspense } from 'react';
import { Skeleton } from '../../components/ui/skeleton';

/**
 * The comments section, loaded when a post's comments are first opened: on the landing page's
 * feed it would otherwise bring the comment box's shared schema (zod) into the first load
 * (issue 14 item 12, tests/e2e/bundle-budget.spec.ts). Pages that open comments at once (a
 * post's own page) import comments-section directly.
 */
const Section = lazy(() => import('./comments-section').then((m) => ({ default: m.CommentsSection })));

export function CommentsSection({ postId }: { postId: string }) {
  return (
    <Suspense fallback={<CommentsLoading />}>
      <Section postId={postId} />
    </Suspense>
  );
}

/** The same placeholder the section shows while its comments load. */
function CommentsLoading() {
  return (
    <div aria-busy="true" className="flex flex-col gap-4 py-2">
      <span className="sr-only" role="status">
        Loading comments
      </span>
      {[0, 1].map((i) => (
        <div key={i} className="flex gap-3">
          <Skeleton circle className="size-8" />
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-3 w-1/3" />
            <Skeleton className="h-3 w-3/4" />
          </div>
        </div>
      ))}
    </div>
  );
}
