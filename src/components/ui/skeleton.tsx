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

interface SkeletonPersonProps extends HTMLAttributes<HTMLDivElement> {
  /** the avatar circle's size classes ('size-10') */
  avatar: string;
  /** one entry a line of text beside it: its height and width classes ('h-3.5 w-40') */
  lines: readonly string[];
  /** the column of lines ('flex flex-1 flex-col gap-2' unless told) */
  linesClassName?: string;
}

/**
 * Someone's placeholder: a round avatar beside lines of text, the shape of a post's author, a
 * creator card, a chat row, a comment or a thread's header. `children` come first (a screen
 * reader's status line where this placeholder is the whole loading state). `className` places
 * the two ('items-center gap-3' unless told) and frames them.
 */
export function SkeletonPerson({ avatar, lines, linesClassName = 'flex flex-1 flex-col gap-2', className, children, ...props }: SkeletonPersonProps) {
  return (
    <div className={cn('flex', className ?? 'items-center gap-3')} {...props}>
      {children}
      <Skeleton circle className={avatar} />
      <div className={linesClassName}>
        {lines.map((line, i) => (
          <Skeleton key={i} className={line} />
        ))}
      </div>
    </div>
  );
}
