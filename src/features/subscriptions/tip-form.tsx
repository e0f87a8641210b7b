import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useId } from 'react';
import { formatRand } from '../../../common/format';
import { TIP_MAX, TIP_MESSAGE_MAX, TIP_MIN, TIP_PRESETS } from '../../../common/tip-limits';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';

type Props = {
  typed: string;
  onTyped: (typed: string) => void;
  amount: string | null;
  message: string;
  onMessage: (message: string) => void;
  touched: boolean;
  onTouched: () => void;
  onContinue: () => void;
};

/**
 * The tip's first step: an amount (a preset or the fan's own) and an optional message. Its values
 * live in TipDialog, since this form is unmounted while the purchase confirmation is open.
 */
export function TipForm({ typed, onTyped, amount, message, onMessage, touched, onTouched, onContinue }: Props) {
  const ids = useId();
  const invalid = touched && !amount;
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        onTouched();
        if (amount) onContinue();
      }}
    >
      <div role="group" aria-label="Suggested amounts" className="grid grid-cols-3 gap-2">
        {TIP_PRESETS.map((preset) => (
          <button
            key={preset}
            type="button"
            aria-pressed={amount === preset.toFixed(2)}
            onClick={() => onTyped(String(preset))}
            className={cn(
              'h-11 rounded-xl border text-sm font-semibold transition-colors focus-visible:ring-2 focus-visible:ring-accent/40 focus-visible:outline-none',
              amount === preset.toFixed(2) ? 'border-violet-400 bg-violet-500/20 text-violet-100' : 'border-border bg-surface text-foreground hover:border-border-strong',
            )}
          >
            {formatRand(preset, { whole: true })}
          </button>
        ))}
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${ids}-amount`} className="text-sm font-medium text-foreground">
          Amount (R)
        </label>
        <Input
          id={`${ids}-amount`}
          inputMode="decimal"
          value={typed}
          invalid={invalid}
          aria-describedby={`${ids}-amount-hint`}
          onChange={(e) => onTyped(e.target.value)}
          onBlur={onTouched}
        />
        <p id={`${ids}-amount-hint`} className={cn('text-xs', invalid ? 'text-danger' : 'text-subtle')}>
          {invalid ? `Enter an amount from ${formatRand(TIP_MIN, { whole: true })} to ${formatRand(TIP_MAX, { whole: true })}.` : `From ${formatRand(TIP_MIN, { whole: true })} to ${formatRand(TIP_MAX, { whole: true })}.`}
        </p>
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${ids}-message`} className="text-sm font-medium text-foreground">
          Message <span className="font-normal text-subtle">(optional)</span>
        </label>
        <textarea
          id={`${ids}-message`}
          value={message}
          maxLength={TIP_MESSAGE_MAX}
          rows={2}
          onChange={(e) => onMessage(e.target.value)}
          className="w-full resize-none rounded-xl border border-border bg-surface px-3.5 py-2.5 text-sm text-foreground placeholder:text-subtle focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40 focus-visible:outline-none"
          placeholder="Say thanks…"
        />
        <p className="self-end text-xs text-subtle">
          {message.length}/{TIP_MESSAGE_MAX}
        </p>
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <AlertDialog.Cancel asChild>
          <Button type="button" variant="secondary">
            Cancel
          </Button>
        </AlertDialog.Cancel>
        <Button type="submit">{amount ? `Continue with ${formatRand(amount)}` : 'Continue'}</Button>
      </div>
    </form>
  );
}
