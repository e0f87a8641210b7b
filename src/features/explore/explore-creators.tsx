import { Link } from '@tanstack/react-router';
import { Users } from 'lucide-react';
import { formatCompactCount } from '../../../common/format';
import type { ExploreCategory } from '../../../common/profile-schemas';
import { Avatar } from '../../components/ui/avatar';
import { Skeleton } from '../../components/ui/skeleton';
import { VerifiedBadge } from '../../components/ui/verified-badge';
import { trpc, type RouterOutputs } from '../../lib/trpc';
import { exploreCreatorsInput, exploreQueryOptions } from './explore-search';

type Creator = RouterOutputs['explore']['creators'][number];

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
          <div key={i} className="flex w-60 shrink-0 items-center gap-3 rounded-card border border-border bg-surface p-3">
            <Skeleton circle className="size-10" />
            <div className="flex flex-1 flex-col gap-2">
              <Skeleton className="h-3.5 w-3/4" />
              <Skeleton className="h-3 w-1/2" />
            </div>
          </div>
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
            <CreatorCard creator={creator} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function CreatorCard({ creator }: { creator: Creator }) {
  const name = creator.displayName || creator.username;
  return (
    <Link
      to="/$username"
      params={{ username: creator.username }}
      data-testid="explore-creator"
      className="flex w-64 items-center gap-3 rounded-card border border-border bg-surface p-3 transition-colors hover:border-accent/50 hover:bg-surface-raised"
    >
      <Avatar src={creator.avatarUrl} name={name} size="md" ring={false} />
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-1.5">
          <span className="truncate font-semibold text-foreground">{name}</span>
          {creator.isVerified ? <VerifiedBadge className="shrink-0" /> : null}
        </p>
        <p className="truncate text-xs text-subtle">
          @{creator.username}
          {creator.categories.length ? ` · ${creator.categories.join(', ')}` : ''}
        </p>
        <p className="mt-0.5 flex items-center gap-1 text-xs text-muted">
          <Users aria-hidden="true" className="size-3" />
          {formatCompactCount(creator.subscriberCount)} {creator.subscriberCount === 1 ? 'subscriber' : 'subscribers'}
        </p>
      </div>
    </Link>
  );
}
