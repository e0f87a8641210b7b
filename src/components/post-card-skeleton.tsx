import { Skeleton, SkeletonPerson } from './ui/skeleton';

/** A feed card while its post loads. */
export function PostCardSkeleton() {
  return (
    <div data-testid="post-skeleton" className="overflow-hidden rounded-card border border-border bg-surface p-4 md:p-5">
      <SkeletonPerson avatar="size-10" lines={['h-3.5 w-40', 'h-3 w-24']} />
      <Skeleton className="mt-4 h-4 w-1/2" />
      <Skeleton className="mt-2 h-3.5 w-5/6" />
      <Skeleton className="mt-4 aspect-[16/10] w-full rounded-xl" />
      <div className="mt-4 flex gap-3">
        <Skeleton className="h-7 w-14 rounded-full" />
        <Skeleton className="h-7 w-14 rounded-full" />
        <Skeleton className="h-7 w-14 rounded-full" />
      </div>
    </div>
  );
}
