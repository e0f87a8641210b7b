import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

/** A shimmering placeholder block; hidden from assistive technology (announce loading elsewhere). */
interface SkeletonProps extends HTMLAttributes<HTMLDivElement> {
  /** round (avatars) instead of softly squared */
  circle?: boolean;
}

export function Skeleton({ className, circle = false, ...props }: SkeletonProps) {
  return (
    <div
      aria-hidden="true"
      className={cn(
        circle ? 'rounded-full' : 'rounded-lg',
        'bg-[linear-gradient(90deg,var(--color-surface-raised)_25%,var(--color-surface-hover)_50%,var(--color-surface-raised)_75%)]',
        'animate-shimmer bg-[length:200%_100%] motion-reduce:animate-none',
        className,
      )}
      {...props}
    />
  );
}
