import { LIMITS } from '../../../common/limits';
import { MediaTileSkeleton } from '../../components/media-tile-skeleton';
import { Skeleton } from '../../components/ui/skeleton';

/*
 * Explore's skeleton, apart from the page: /explore shows it as its pending component, which the
 * router keeps in the entry chunk that every first visit loads; the page loads with its own chunk.
 */

/** The page's column, the same for the page and its skeleton (nothing moves when it arrives). */
export const EXPLORE_PAGE = 'mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 pt-6 pb-10 md:gap-8 md:px-6 md:pt-10';
export const EXPLORE_GRID = 'grid grid-cols-2 gap-x-3 gap-y-5 sm:grid-cols-3 md:gap-x-4 lg:grid-cols-4';

/** The screen while the session is checked (before the gate lets the page and its queries run). */
export function ExplorePageSkeleton() {
  return (
    <div aria-busy="true" className={EXPLORE_PAGE}>
      <span className="sr-only" role="status">
        Loading Explore
      </span>
      <div className="flex flex-col gap-2">
        <Skeleton className="h-9 w-44 md:h-10" />
        <Skeleton className="h-4 w-64 max-w-full" />
      </div>
      <Skeleton className="h-11 w-full rounded-full md:max-w-xl" />
      <div className={EXPLORE_GRID}>
        {Array.from({ length: LIMITS.exploreSkeletons }, (_, i) => (
          <MediaTileSkeleton key={i} withCaption testId="explore-skeleton" />
        ))}
      </div>
    </div>
  );
}
