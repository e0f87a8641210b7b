import { ChevronRight } from 'lucide-react';
import { LIMITS } from '../../../common/limits';
import { LANDING } from '../../../common/texts';
import { CreatorCard, CreatorCardSkeleton } from '../../components/creator-card';
import { trpc } from '../../lib/trpc';

const GRID = 'grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3';
// The strip scrolls sideways; the fade on its right edge and the half-shown next card say so too.
const STRIP =
  'flex snap-x snap-mandatory gap-3 overflow-x-auto pb-2 [mask-image:linear-gradient(to_right,black_85%,transparent)] [&>*]:shrink-0 [&>*]:snap-start';

/**
 * `grid`: the landing page's section under the hero. `strip`: for a signed-in user, a compact
 * row above the feed, so the first post shows without scrolling past a grid (issue 14 item 5).
 */
export type FeaturedCreatorsLayout = 'grid' | 'strip';

/**
 * The Featured Creators section (spec part 1 §2 and §4): loading = 3 skeleton cards; error
 * (which wins over empty) = 'Unable to load featured creators.' / 'Please try again later.';
 * empty = 'No featured creators available at the moment.'; loaded = one card per creator.
 */
export function FeaturedCreators({ layout = 'grid' }: { layout?: FeaturedCreatorsLayout }) {
  const featured = trpc.creators.featured.useQuery();
  const creators = featured.data;
  const strip = layout === 'strip';
  const list = strip ? STRIP : GRID;
  const cardVariant = strip ? 'strip' : 'featured';

  let body;
  if (featured.isError && !creators?.length) {
    body = (
      <div role="alert" className="rounded-card border border-danger/30 bg-danger/5 px-6 py-10 text-center">
        <p className="font-semibold text-foreground">{LANDING.featuredErrorTitle}</p>
        <p className="mt-1 text-sm text-muted">{LANDING.featuredErrorText}</p>
      </div>
    );
  } else if (!creators) {
    body = (
      <div className={list} aria-busy="true">
        <span className="sr-only" role="status">
          Loading featured creators
        </span>
        {Array.from({ length: LIMITS.featuredSkeletons }, (_, i) => (
          <CreatorCardSkeleton key={i} variant={cardVariant} testId="featured-creator-skeleton" />
        ))}
      </div>
    );
  } else if (creators.length === 0) {
    body = (
      <div className="rounded-card border border-dashed border-border px-6 py-10 text-center text-sm text-muted">
        {LANDING.featuredEmpty}
      </div>
    );
  } else {
    body = (
      <ul className={list}>
        {creators.map((creator) => (
          <li key={creator.id}>
            <CreatorCard creator={creator} variant={cardVariant} testId="featured-creator-card" />
          </li>
        ))}
      </ul>
    );
  }

  if (strip) {
    return (
      <section aria-labelledby="featured-creators-heading" className="flex flex-col gap-3">
        <div className="flex items-baseline justify-between gap-3">
          <h2 id="featured-creators-heading" className="text-lg font-bold tracking-tight">
            {LANDING.featuredHeading}
          </h2>
          {creators && creators.length > 2 ? (
            <p data-testid="featured-strip-hint" className="flex items-center gap-0.5 text-xs text-muted">
              {LANDING.featuredStripHint}
              <ChevronRight aria-hidden="true" className="size-3.5" />
            </p>
          ) : null}
        </div>
        {body}
      </section>
    );
  }

  return (
    <section aria-labelledby="featured-creators-heading" className="flex flex-col gap-6">
      <div>
        <h2 id="featured-creators-heading" className="text-2xl font-bold tracking-tight md:text-3xl">
          {LANDING.featuredHeading}
        </h2>
        <p className="mt-1 text-muted">{LANDING.featuredLine}</p>
      </div>
      {body}
    </section>
  );
}
