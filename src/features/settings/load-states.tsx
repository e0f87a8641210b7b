import { TriangleAlert } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { notify } from '../../lib/toast';

/** While a settings screen's data loads: the shape of what is coming. */
export function SettingsSkeleton({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <div aria-busy="true" className="flex flex-col gap-4">
      <span className="sr-only" role="status">
        {label}
      </span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-20 w-full rounded-card" />
      ))}
    </div>
  );
}

/** A screen whose data could not be loaded: the spec's words and a way to try again. */
export function SettingsLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-card border border-danger/30 bg-danger/5 px-6 py-12 text-center">
      <TriangleAlert aria-hidden="true" className="size-7 text-danger" />
      <p className="font-semibold text-foreground">{message}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * A settings screen's query: the skeleton (`loading` names it) until the data is there, the load
 * error (`failed`, with Try again) when it could not be read, then `children` with the data.
 * With `toastId`, a failed load is also a toast (the spec's screens that say so).
 */
export function SettingsLoaded<T>({
  query,
  loading,
  failed,
  rows,
  toastId,
  children,
}: {
  query: { data: T | undefined; isError: boolean; refetch: () => unknown };
  loading: string;
  failed: string;
  rows?: number;
  toastId?: string;
  children: (data: T) => ReactNode;
}) {
  useEffect(() => {
    if (toastId && query.isError) notify.error({ title: 'Error', description: failed }, { id: toastId });
  }, [query.isError, toastId, failed]);
  if (query.isError && !query.data) return <SettingsLoadError message={failed} onRetry={() => void query.refetch()} />;
  if (!query.data) return <SettingsSkeleton label={loading} rows={rows} />;
  return children(query.data);
}
