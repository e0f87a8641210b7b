import { Skeleton, SkeletonPerson } from './ui/skeleton';

/** A square grid tile while its post loads; `withCaption` adds the title and author lines under it. */
export function MediaTileSkeleton({ withCaption = false, testId = 'tile-skeleton' }: { withCaption?: boolean; testId?: string }) {
  return (
    <div data-testid={testId} className="flex flex-col gap-2.5">
      <Skeleton className="aspect-square w-full rounded-xl" />
      {withCaption ? <SkeletonPerson className="items-center gap-2" avatar="size-6" lines={['h-3 w-3/4', 'h-2.5 w-1/2']} linesClassName="flex flex-1 flex-col gap-1.5" /> : null}
    </div>
  );
}
