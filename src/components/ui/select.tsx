import type { Ref, SelectHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  ref?: Ref<HTMLSelectElement>;
  invalid?: boolean;
}

/** A native select (a phone keeps its own picker) dressed as Input is, red when invalid. */
export function Select({ className, invalid, ...props }: SelectProps) {
  return (
    <select
      aria-invalid={invalid || undefined}
      className={cn(
        'h-11 w-full rounded-xl border bg-surface px-3.5 text-sm text-foreground',
        'outline-none focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40',
        'disabled:cursor-not-allowed disabled:opacity-60',
        invalid ? 'border-danger/70' : 'border-border',
        className,
      )}
      {...props}
    />
  );
}
