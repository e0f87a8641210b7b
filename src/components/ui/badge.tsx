import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

type BadgeVariant = 'default' | 'accent' | 'premium' | 'danger';

const variants: Record<BadgeVariant, string> = {
  default: 'bg-surface-raised text-muted border border-border',
  accent: 'bg-accent-soft text-violet-300 border border-accent/30',
  premium: 'bg-amber-400/10 text-amber-300 border border-amber-400/30',
  danger: 'bg-danger text-white',
};

interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: BadgeVariant;
}

export function Badge({ variant = 'default', className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold leading-none',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
