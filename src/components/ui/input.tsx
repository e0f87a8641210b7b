import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '../../lib/cn';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
  invalid?: boolean;
}

export function Input({ className, invalid, ...props }: InputProps) {
  return (
    <input
      aria-invalid={invalid || undefined}
      className={cn(
        'h-11 w-full rounded-xl border bg-surface px-3.5 text-sm text-foreground placeholder:text-subtle',
        'transition-colors outline-none focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40',
        'focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60',
        invalid ? 'border-danger/70' : 'border-border hover:border-border-strong',
        className,
      )}
      {...props}
    />
  );
}
