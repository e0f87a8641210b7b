import { Skeleton } from './ui/skeleton';

/**
 * A screen's place while what it needs is not known yet (the session check of a gated screen that
 * brings no skeleton of its own): a title line and a few blocks, announced once as loading.
 */
export function PageSkeleton() {
  return (
    <div aria-busy="true" data-testid="page-skeleton" className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 pt-6 pb-10 md:px-6 md:pt-10">
      <span className="sr-only" role="status">
        Loading
      </span>
      <Skeleton className="h-9 w-48" />
      <Skeleton className="h-4 w-72 max-w-full" />
      <Skeleton className="mt-4 h-40 w-full rounded-card" />
      <Skeleton className="h-40 w-full rounded-card" />
    </div>
  );
}
