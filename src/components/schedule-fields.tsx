import { CalendarClock } from 'lucide-react';
import { useId, useState } from 'react';
import { localDateTime, scheduleProblem, SCHEDULE_TEXTS, toDateTimeInputs } from '../../common/schedule';
import { Button } from './ui/button';
import { Input } from './ui/input';

/** The creator's time zone as the browser names it (the date and time are read in it). */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * A date and a time in the creator's time zone for a scheduled post (common/schedule.ts: in the
 * future, at most a year ahead; the server checks again on its clock). Opens an hour from now.
 * `onConfirm` gets the chosen time once it is valid; used by the upload form and by Reschedule.
 */
export function ScheduleFields({
  confirmLabel,
  busy,
  disabled,
  initial,
  onConfirm,
}: {
  confirmLabel: string;
  busy?: boolean;
  disabled?: boolean;
  initial?: Date;
  onConfirm: (at: Date) => void;
}) {
  const id = useId();
  const [value, setValue] = useState(() => toDateTimeInputs(initial ?? new Date(Date.now() + 3_600_000)));
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    const at = localDateTime(value.date, value.time);
    const problem = at ? scheduleProblem(at, new Date()) : SCHEDULE_TEXTS.required;
    setError(problem);
    if (!problem && at) onConfirm(at);
  };
  return (
    <fieldset className="flex flex-col gap-3 rounded-card border border-border p-4" aria-describedby={`${id}-zone`}>
      <legend className="px-1 text-sm font-medium text-foreground">Publish on</legend>
      <div className="flex flex-col gap-3 sm:flex-row">
        {([['date', 'Date'], ['time', 'Time']] as const).map(([part, label]) => (
          <label key={part} className="flex flex-1 flex-col gap-1 text-sm text-muted" htmlFor={`${id}-${part}`}>
            {label}
            <Input
              id={`${id}-${part}`}
              type={part}
              value={value[part]}
              disabled={disabled}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => setValue((v) => ({ ...v, [part]: e.target.value }))}
            />
          </label>
        ))}
      </div>
      <p id={`${id}-zone`} className="text-xs text-subtle">
        Your time zone: {timeZone()}. At most {365} days ahead.
      </p>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="button" size="lg" disabled={disabled || busy} loading={busy} onClick={confirm}>
          {busy ? null : <CalendarClock aria-hidden="true" className="size-4" />}
          {confirmLabel}
        </Button>
      </div>
    </fieldset>
  );
}
