import { TriangleAlert } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { SHELL_TEXTS } from '../../common/texts';
import { cn } from '../lib/cn';
import { notify } from '../lib/toast';
import { Button } from './ui/button';
import { Skeleton } from './ui/skeleton';

export interface LoadingPlaceholderProps {
  /** what is loading, for screen readers: 'Loading subscriptions' */
  label: string;
  /** the shape of what is coming when it is not `rows` blocks of one size */
  children?: ReactNode;
  /** how many blocks of `rowClassName` (without children) */
  rows?: number;
  rowClassName?: string;
  /** the column's gap and margins ('gap-3', 'mt-4 gap-3') */
  className?: string;
}

/**
 * While a screen's or a box's data loads: a busy column with the shape of what is coming, and its
 * name said once to screen readers (the skeleton blocks themselves are hidden from them).
 */
export function LoadingPlaceholder({ label, children, rows = 3, rowClassName = 'h-20 w-full rounded-card', className = 'gap-4' }: LoadingPlaceholderProps) {
  return (
    <div aria-busy="true" className={cn('flex flex-col', className)}>
      <span className="sr-only" role="status">
        {label}
      </span>
      {children ?? Array.from({ length: rows }, (_, i) => <Skeleton key={i} className={rowClassName} />)}
    </div>
  );
}

/**
 * Data that could not be loaded: the screen's own words and Try again. As a screen's whole body it
 * is a box with a warning sign; `compact`, a line and the button inside a box of its own (a
 * section with its heading, the Premium card).
 */
export function LoadError({ message, onRetry, compact = false, className }: { message: string; onRetry: () => void; compact?: boolean; className?: string }) {
  const retry = (
    <Button variant="secondary" size="sm" onClick={onRetry}>
      {SHELL_TEXTS.tryAgain}
    </Button>
  );
  if (compact) {
    return (
      <div role="alert" className={cn('flex flex-col items-start gap-3 text-sm text-muted', className)}>
        {message}
        {retry}
      </div>
    );
  }
  return (
    <div role="alert" className={cn('flex flex-col items-center gap-3 rounded-card border border-danger/30 bg-danger/5 px-6 py-12 text-center', className)}>
      <TriangleAlert aria-hidden="true" className="size-7 text-danger" />
      <p className="font-semibold text-foreground">{message}</p>
      {retry}
    </div>
  );
}

/**
 * One query's three states: the placeholder (`loading` names it; `rows`, `rowClassName`,
 * `placeholderClassName` or `skeleton` shape it) until the data is there, the load error
 * (`failed`, with Try again) when it could not be read, then `children` with the data. With
 * `toastId`, a failed load is also a toast (the spec's screens that say so).
 */
export function Loaded<T>({
  query,
  loading,
  failed,
  toastId,
  rows,
  rowClassName,
  placeholderClassName,
  skeleton,
  children,
}: {
  query: { data: T | undefined; isError: boolean; refetch: () => unknown };
  loading: string;
  failed: string;
  toastId?: string;
  rows?: number;
  rowClassName?: string;
  placeholderClassName?: string;
  skeleton?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  useEffect(() => {
    if (toastId && query.isError) notify.error({ title: 'Error', description: failed }, { id: toastId });
  }, [query.isError, toastId, failed]);
  if (query.isError && !query.data) return <LoadError message={failed} onRetry={() => void query.refetch()} />;
  if (!query.data) {
    return (
      <LoadingPlaceholder label={loading} rows={rows} rowClassName={rowClassName} className={placeholderClassName}>
        {skeleton}
      </LoadingPlaceholder>
    );
  }
  return children(query.data);
}
