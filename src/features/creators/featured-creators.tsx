import { Link } from '@tanstack/react-router';
import { Users } from 'lucide-react';
import { formatCompactCount } from '../../../common/format';
import { LIMITS } from '../../../common/limits';
import { LANDING } from '../../../common/texts';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { Skeleton } from '../../components/ui/skeleton';
import { VerifiedBadge } from '../../components/ui/verified-badge';
import { trpc, type RouterOutputs } from '../../lib/trpc';

type FeaturedCreator = RouterOutputs['creators']['featured'][number];

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
          <FeaturedCreatorSkeleton key={i} />
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
            <FeaturedCreatorCard creator={creator} />
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

function FeaturedCreatorCard({ creator }: { creator: FeaturedCreator }) {
  const name = creator.name || creator.username;
  return (
    <Link
      to="/$username"
      params={{ username: creator.username }}
      data-testid="featured-creator-card"
      className="group flex items-center gap-4 rounded-card border border-border bg-surface p-4 transition-all duration-200 hover:-translate-y-0.5 hover:border-accent/50 hover:bg-surface-raised hover:shadow-xl hover:shadow-accent/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
    >
      <Avatar src={creator.avatarUrl} name={name} size="lg" />
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-1.5">
          <h3 className="truncate font-semibold text-foreground">{name}</h3>
          {creator.isVerified ? <VerifiedBadge /> : null}
          {creator.isPremium ? (
            <Badge variant="premium" className="ml-1">
              Premium
            </Badge>
          ) : null}
        </div>
        <p className="truncate text-sm text-subtle">@{creator.username}</p>
        <p className="mt-1.5 flex items-center gap-1.5 text-sm text-muted">
          <Users aria-hidden="true" className="size-3.5" />
          {formatCompactCount(creator.subscriberCount)} {creator.subscriberCount === 1 ? 'subscriber' : 'subscribers'}
        </p>
      </div>
    </Link>
  );
}

function FeaturedCreatorSkeleton() {
  return (
    <div data-testid="featured-creator-skeleton" className="flex items-center gap-4 rounded-card border border-border bg-surface p-4">
      <Skeleton circle className="size-14" />
      <div className="flex flex-1 flex-col gap-2">
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-3 w-1/3" />
        <Skeleton className="h-3 w-1/2" />
      </div>
    </div>
  );
}
