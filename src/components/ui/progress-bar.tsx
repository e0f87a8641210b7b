import { cn } from '../../lib/cn';

/**
 * A determinate progress bar (0-100) for an upload: the screen reader hears `valueText` (what has
 * been sent of what), sighted users see the bar fill; `muted` greys the fill while the work waits.
 */
export function ProgressBar({ percent, valueText, label = 'Upload progress', muted = false }: { percent: number; valueText?: string; label?: string; muted?: boolean }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText}
      className="h-2.5 w-full overflow-hidden rounded-full bg-surface-raised"
    >
      <div className={cn('h-full rounded-full transition-[width] duration-300', muted ? 'bg-border-strong' : 'bg-gradient-accent')} style={{ width: `${percent}%` }} />
    </div>
  );
}
