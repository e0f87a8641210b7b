import type { ExploreCategory } from '../../../common/profile-schemas';
import { CreatorCard, CreatorCardSkeleton } from '../../components/creator-card';
import { trpc } from '../../lib/trpc';
import { exploreCreatorsInput, exploreQueryOptions } from './explore-search';

/**
 * Creators matching the search (on names) and the chips, as a strip of cards above the posts;
 * shown only when there are some (the posts grid says when nothing matches at all).
 */
export function ExploreCreators({ q, categories }: { q: string | undefined; categories: ExploreCategory[] }) {
  const creators = trpc.explore.creators.useQuery(exploreCreatorsInput(q, categories), exploreQueryOptions);

  if (!creators.data) {
    if (creators.isError) return null;
    return (
      <div aria-hidden="true" className="flex gap-3 overflow-hidden">
        {Array.from({ length: 3 }, (_, i) => (
          <CreatorCardSkeleton key={i} variant="compact" />
        ))}
      </div>
    );
  }
  if (creators.data.length === 0) return null;

  return (
    <section aria-labelledby="explore-creators-heading" className="flex flex-col gap-3">
      <h2 id="explore-creators-heading" className="text-lg font-semibold tracking-tight">
        Creators
      </h2>
      <ul className="-mx-4 flex snap-x scroll-px-4 gap-3 overflow-x-auto px-4 pb-2 [scrollbar-width:thin] md:mx-0 md:scroll-px-0 md:px-0">
        {creators.data.map((creator) => (
          <li key={creator.id} className="snap-start">
            <CreatorCard creator={creator} variant="compact" testId="explore-creator" />
          </li>
        ))}
      </ul>
    </section>
  );
}
