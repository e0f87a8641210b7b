import { cn } from '../../lib/cn';

/** One line of a purchase's or a subscription's facts: the label left, the value right. */
export function DetailRow({ label, value, testId, strong }: { label: string; value: string; testId?: string; strong?: boolean }) {
  return (
    <div className="flex items-baseline justify-between gap-4 px-4 py-2.5">
      <dt className="text-muted">{label}</dt>
      <dd data-testid={testId} className={cn('text-right text-foreground tabular-nums', strong && 'text-base font-semibold')}>
        {value}
      </dd>
    </div>
  );
}

/** The bordered list the rows stand in. */
export const DETAIL_LIST_CLASS = 'divide-y divide-border rounded-card border border-border bg-surface text-sm';
