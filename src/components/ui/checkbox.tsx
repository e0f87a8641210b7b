import { Check } from 'lucide-react';
import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '../../lib/cn';

interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  /** to the input itself (react-hook-form's register focuses the field through it) */
  ref?: Ref<HTMLInputElement>;
}

/** A native checkbox (so forms, labels and keyboards just work) drawn in the theme. */
export function Checkbox({ className, ...props }: CheckboxProps) {
  return (
    <span className={cn('relative inline-flex size-5 shrink-0', className)}>
      <input
        type="checkbox"
        className={cn(
          'peer size-5 cursor-pointer appearance-none rounded-md border border-border-strong bg-surface transition-colors',
          'checked:border-accent checked:bg-accent hover:border-accent/70',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
          'aria-invalid:border-danger',
        )}
        {...props}
      />
      <Check
        aria-hidden="true"
        strokeWidth={3}
        className="pointer-events-none absolute inset-0.5 size-4 text-white opacity-0 peer-checked:opacity-100"
      />
    </span>
  );
}
