import type { UseFormRegisterReturn } from 'react-hook-form';
import { PAYMENT_INTERVALS, type PaymentInterval } from '../../../common/enums';
import { cn } from '../../lib/cn';
import { intervalLabel } from '../../lib/tier-price';

type Props = { radio: UseFormRegisterReturn; selected: PaymentInterval | undefined; error: string | undefined };

/** The tier's billing interval as three radio buttons drawn as segments. */
export function TierIntervalPicker({ radio, selected, error }: Props) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium text-foreground">Billing interval</legend>
      <div className="grid grid-cols-3 gap-2" role="presentation">
        {PAYMENT_INTERVALS.map((interval) => (
          <label
            key={interval}
            className={cn(
              'flex cursor-pointer items-center justify-center rounded-xl border px-3 py-2.5 text-sm font-medium transition-colors',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent',
              selected === interval
                ? 'border-accent bg-accent-soft text-foreground'
                : 'border-border text-muted hover:border-border-strong hover:text-foreground',
            )}
          >
            <input type="radio" {...radio} value={interval} className="sr-only" />
            {intervalLabel(interval)}
          </label>
        ))}
      </div>
      {error ? <p className="text-xs font-medium text-danger">{error}</p> : null}
    </fieldset>
  );
}
