import { LIMITS } from '../../../common/limits';
import { LANDING } from '../../../common/texts';
import { CreatorCard, CreatorCardSkeleton } from '../../components/creator-card';
import { trpc } from '../../lib/trpc';

const GRID = 'grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3';

/**
 * The Featured Creators section (spec part 1 §2 and §4): loading = 3 skeleton cards; error
 * (which wins over empty) = 'Unable to load featured creators.' / 'Please try again later.';
 * empty = 'No featured creators available at the moment.'; loaded = one card per creator.
 */
export function FeaturedCreators() {
  const featured = trpc.creators.featured.useQuery();
  const creators = featured.data;

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
      <div className={GRID} aria-busy="true">
        <span className="sr-only" role="status">
          Loading featured creators
        </span>
        {Array.from({ length: LIMITS.featuredSkeletons }, (_, i) => (
          <CreatorCardSkeleton key={i} variant="featured" testId="featured-creator-skeleton" />
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
      <ul className={GRID}>
        {creators.map((creator) => (
          <li key={creator.id}>
            <CreatorCard creator={creator} variant="featured" testId="featured-creator-card" />
          </li>
        ))}
      </ul>
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
