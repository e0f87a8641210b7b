import { Link } from '@tanstack/react-router';
import { UserX } from 'lucide-react';
import { SHELL_TEXTS } from '../../../common/texts';
import { Button, buttonClasses } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';

/** A profile page's dead ends: 'Profile not found', 'Creator not found', 'Username is required', a failed load. */
export function ProfileMessage({ title, description, retry }: { title: string; description?: string; retry?: () => void }) {
  return (
    <div className="flex flex-col items-center rounded-card border border-border bg-surface px-6 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-surface-raised text-subtle">
        <UserX aria-hidden="true" className="size-7" />
      </span>
      <h1 className="mt-5 text-xl font-bold tracking-tight">{title}</h1>
      {description ? <p className="mt-2 max-w-md text-muted">{description}</p> : null}
      <div className="mt-6 flex gap-3">
        {retry ? (
          <Button variant="secondary" onClick={retry}>
            {SHELL_TEXTS.tryAgain}
          </Button>
        ) : null}
        <Link to="/" className={buttonClasses({ variant: retry ? 'ghost' : 'primary' })}>
          {SHELL_TEXTS.notFoundHome}
        </Link>
      </div>
    </div>
  );
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
