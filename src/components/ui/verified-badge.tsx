import { BadgeCheck } from 'lucide-react';
import { cn } from '../../lib/cn';

/** The verified tick. It is an image with the accessible name 'Verified'. */
export function VerifiedBadge({ className }: { className?: string }) {
  return (
    <span role="img" aria-label="Verified" title="Verified" className={cn('inline-flex text-verified', className)}>
      <BadgeCheck aria-hidden="true" className="size-4 fill-verified/15" />
    </span>
  );
}
