import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { HandCoins } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { CARD_TEXTS } from '../../../common/card-texts';
import { formatRand } from '../../../common/format';
import { TIP_MAX, TIP_MESSAGE_MAX, TIP_MIN, TIP_PRESETS, tipAmountOf } from '../../../common/tip-limits';
import { TIP_TEXTS } from '../../../common/tip-texts';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';
import { useAttemptKeys } from './attempt-key';
import { PurchaseDialog, type ConfirmablePurchase } from './purchase-dialog';

export interface TipTarget {
  username: string;
  name: string;
}

/**
 * A tip (issue 27 item 1) in two steps: the fan picks an amount (a preset or their own, within
 * R10–R5,000) and may add a short message, then confirms it in the one purchase confirmation
 * (PurchaseDialog) whose Pay charges it. One idempotency key per confirmed tip, kept until the
 * server answers: a double press or Pay again after a dropped connection charges once.
 */
export default function TipDialog({ target, onClose }: { target: TipTarget; onClose: () => void }) {
  const ids = useId();
  const [typed, setTyped] = useState(String(TIP_PRESETS[1]));
  const [message, setMessage] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const paying = useRef(false);
  const attempts = useAttemptKeys();
  const send = trpc.tips.send.useMutation();
  const provider = trpc.subscriptions.provider.useQuery();
  const amount = tipAmountOf(typed);
  const scope = `tip:${target.username}`;

  const close = () => {
    if (!paying.current) onClose();
  };
  const pay = async () => {
    if (!amount || paying.current) return;
    paying.current = true;
    setPending(true);
    try {
      const result = await send.mutateAsync({
        creatorUsername: target.username, amount, confirmedAmount: amount, message: message.trim() || null, idempotencyKey: attempts.keyFor(scope),
      });
      attempts.settle(scope);
      if (result.kind === 'redirect') return window.location.assign(result.url);
      if (result.kind === 'processing') {
        notify.success({ title: CARD_TEXTS.processing });
        onClose();
        return;
      }
      notify.success({ title: TIP_TEXTS.sent(formatRand(result.amount), result.creatorName), description: result.testPayment ? 'Test payment: no card was charged.' : undefined });
      paying.current = false;
      onClose();
    } catch (error) {
      // a refusal ends the attempt; a dropped connection keeps the key, so Pay again cannot charge twice
      if (isServerError(error)) {
        attempts.settle(scope);
        setConfirming(false);
      }
      const code = errorCode(error);
      notify.error({ title: 'Error', description: code === 'INTERNAL_SERVER_ERROR' || !isServerError(error) ? TIP_TEXTS.failed : (error as Error).message });
    } finally {
      paying.current = false;
      setPending(false);
    }
  };

  const confirmation: ConfirmablePurchase = {
    offer:
      confirming && amount
        ? { title: `Tip ${target.name}`, planName: 'One-off tip', amountNow: amount, renewal: null, startsAt: null, provider: provider.data?.provider ?? null }
        : null,
    pending,
    pay,
    close: () => {
      if (!paying.current) setConfirming(false);
    },
  };

  const invalid = touched && !amount;
  return (
    <>
      <AlertDialog.Root open={!confirming} onOpenChange={(open) => (open ? undefined : close())}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm" />
          <AlertDialog.Content
            data-testid="tip-dialog"
            className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col gap-5 overflow-y-auto rounded-card border border-border bg-surface-raised p-5 shadow-2xl shadow-black/60 md:p-6"
          >
            <div className="flex gap-4">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-violet-500/15 text-violet-300 ring-1 ring-violet-400/30">
                <HandCoins aria-hidden="true" className="size-5" />
              </span>
              <div className="flex min-w-0 flex-col gap-1.5">
                <AlertDialog.Title className="text-lg font-semibold tracking-tight break-words text-foreground">Tip {target.name}</AlertDialog.Title>
                <AlertDialog.Description className="text-sm leading-relaxed text-muted">
                  A one-off thank-you. It does not unlock any content.
                </AlertDialog.Description>
              </div>
            </div>
            <form
              className="flex flex-col gap-4"
              onSubmit={(event) => {
                event.preventDefault();
                setTouched(true);
                if (amount) setConfirming(true);
              }}
            >
              <div role="group" aria-label="Suggested amounts" className="grid grid-cols-3 gap-2">
                {TIP_PRESETS.map((preset) => (
                  <button
                    key={preset}
                    type="button"
                    aria-pressed={amount === preset.toFixed(2)}
                    onClick={() => setTyped(String(preset))}
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
                  onChange={(e) => setTyped(e.target.value)}
                  onBlur={() => setTouched(true)}
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
                  onChange={(e) => setMessage(e.target.value)}
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
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
      <PurchaseDialog purchase={confirmation} />
    </>
  );
}
