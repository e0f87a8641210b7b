import { Loader2 } from 'lucide-react';
import { cn } from '../../lib/cn';

interface SpinnerProps {
  /** size and colour; `size-4` when not given */
  className?: string;
  /** Read by screen readers; omit when the spinner sits inside a labelled button. */
  label?: string;
}

export function Spinner({ className, label }: SpinnerProps) {
  return (
    <span role={label ? 'status' : undefined} className="inline-flex items-center">
      <Loader2 aria-hidden="true" className={cn('animate-spin', className ?? 'size-4')} />
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}
