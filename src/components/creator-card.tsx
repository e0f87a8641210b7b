import { Link } from '@tanstack/react-router';
import { Users } from 'lucide-react';
import { formatCompactCount } from '../../common/format';
import type { CreatorCardDto } from '../../common/profile-dtos';
import { Avatar } from './ui/avatar';
import { Badge } from './ui/badge';
import { SkeletonPerson } from './ui/skeleton';
import { VerifiedBadge } from './ui/verified-badge';

/**
 * How the card sits where it is shown: `featured` in the landing page's grid (large, a heading
 * per card under the section's, the Premium badge); `compact` in Explore's scrolling strip
 * (narrow, the creator's categories after the username); `strip` in the signed-in home's row of
 * featured creators above the feed (narrow, no categories: the feed comes first).
 */
export type CreatorCardVariant = 'featured' | 'compact' | 'strip';

const STYLES = {
  featured: {
    link: 'group flex items-center gap-4 rounded-card border border-border bg-surface p-4 transition-all duration-200 hover:-translate-y-0.5 hover:border-accent/50 hover:bg-surface-raised hover:shadow-xl hover:shadow-accent/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
    handle: 'truncate text-sm text-subtle',
    count: 'mt-1.5 flex items-center gap-1.5 text-sm text-muted',
    countIcon: 'size-3.5',
  },
  compact: {
    link: 'flex w-64 items-center gap-3 rounded-card border border-border bg-surface p-3 transition-colors hover:border-accent/50 hover:bg-surface-raised',
    handle: 'truncate text-xs text-subtle',
    count: 'mt-0.5 flex items-center gap-1 text-xs text-muted',
    countIcon: 'size-3',
  },
  strip: {
    link: 'flex w-56 items-center gap-3 rounded-card border border-border bg-surface p-3 transition-colors hover:border-accent/50 hover:bg-surface-raised',
    handle: 'truncate text-xs text-subtle',
    count: 'mt-0.5 flex items-center gap-1 text-xs text-muted',
    countIcon: 'size-3',
  },
} as const;

/** A creator linking to their profile: avatar, name, verified badge, @username and active subscribers. */
export function CreatorCard({ creator, variant, testId }: { creator: CreatorCardDto; variant: CreatorCardVariant; testId: string }) {
  const name = creator.displayName || creator.username;
  const featured = variant === 'featured';
  const style = STYLES[variant];
  return (
    <Link to="/$username" params={{ username: creator.username }} data-testid={testId} className={style.link}>
      {featured ? <Avatar src={creator.avatarUrl} name={name} size="lg" /> : <Avatar src={creator.avatarUrl} name={name} size="md" ring={false} />}
      <div className="min-w-0 flex-1">
        {featured ? (
          <div className="flex items-center gap-1.5">
            <h3 className="truncate font-semibold text-foreground">{name}</h3>
            {creator.isVerified ? <VerifiedBadge /> : null}
            {creator.isPremium ? (
              <Badge variant="premium" className="ml-1">
                Premium
              </Badge>
            ) : null}
          </div>
        ) : (
          <p className="flex items-center gap-1.5">
            <span className="truncate font-semibold text-foreground">{name}</span>
            {creator.isVerified ? <VerifiedBadge className="shrink-0" /> : null}
          </p>
        )}
        <p className={style.handle}>
          @{creator.username}
          {variant === 'compact' && creator.categories.length ? ` · ${creator.categories.join(', ')}` : ''}
        </p>
        <p className={style.count}>
          <Users aria-hidden="true" className={style.countIcon} />
          {formatCompactCount(creator.subscriberCount)} {creator.subscriberCount === 1 ? 'subscriber' : 'subscribers'}
        </p>
      </div>
    </Link>
  );
}

/** The card's place while creators load. */
export function CreatorCardSkeleton({ variant, testId }: { variant: CreatorCardVariant; testId?: string }) {
  if (variant !== 'featured') {
    return (
      <SkeletonPerson
        data-testid={testId}
        className={`${variant === 'strip' ? 'w-56' : 'w-60'} shrink-0 items-center gap-3 rounded-card border border-border bg-surface p-3`}
        avatar="size-10"
        lines={['h-3.5 w-3/4', 'h-3 w-1/2']}
      />
    );
  }
  return <SkeletonPerson data-testid={testId} className="items-center gap-4 rounded-card border border-border bg-surface p-4" avatar="size-14" lines={['h-4 w-2/3', 'h-3 w-1/3', 'h-3 w-1/2']} />;
}
