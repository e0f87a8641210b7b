import { UserX } from 'lucide-react';
import { DeadEnd } from '../../components/dead-end';
import { Skeleton } from '../../components/ui/skeleton';

/** A profile page's dead ends: 'Profile not found', 'Creator not found', 'Username is required', a failed load. */
export function ProfileMessage(props: { title: string; description?: string; retry?: () => void }) {
  return <DeadEnd icon={UserX} {...props} />;
}

/** The header card while the profile loads. */
export function ProfileHeaderSkeleton() {
  return (
    <div data-testid="profile-skeleton" aria-busy="true" className="overflow-hidden rounded-card border border-border bg-surface">
      <span className="sr-only" role="status">
        Loading profile
      </span>
      <Skeleton className="h-24 rounded-none md:h-32" />
      <div className="px-4 pb-6 md:px-6">
        <Skeleton circle className="-mt-12 size-24 ring-4 ring-surface md:-mt-14 md:size-28" />
        <Skeleton className="mt-4 h-7 w-48" />
        <Skeleton className="mt-2 h-4 w-28" />
        <Skeleton className="mt-4 h-4 w-full max-w-md" />
        <Skeleton className="mt-2 h-4 w-2/3 max-w-sm" />
        <div className="mt-4 flex gap-2">
          <Skeleton className="h-7 w-16 rounded-full" />
          <Skeleton className="h-7 w-20 rounded-full" />
        </div>
      </div>
    </div>
  );
}
