import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { HandCoins } from 'lucide-react';
import { useState } from 'react';
import { TIP_PRESETS, tipAmountOf } from '../../../common/tip-limits';
import { trpc } from '../../lib/trpc';
import { PurchaseDialog, type ConfirmablePurchase } from './purchase-dialog';
import { TipForm } from './tip-form';
import { useTipPayment } from './use-tip-payment';

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
  const [typed, setTyped] = useState(String(TIP_PRESETS[1]));
  const [message, setMessage] = useState('');
  const [touched, setTouched] = useState(false);
  const provider = trpc.subscriptions.provider.useQuery();
  const amount = tipAmountOf(typed);
  const { confirming, setConfirming, pending, pay, close, closeConfirmation } = useTipPayment(target, amount, message, onClose);

  const confirmation: ConfirmablePurchase = {
    offer:
      confirming && amount
        ? { title: `Tip ${target.name}`, planName: 'One-off tip', amountNow: amount, renewal: null, startsAt: null, provider: provider.data?.provider ?? null }
        : null,
    pending,
    pay,
    close: closeConfirmation,
  };

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
            <TipForm
              typed={typed}
              onTyped={setTyped}
              amount={amount}
              message={message}
              onMessage={setMessage}
              touched={touched}
              onTouched={() => setTouched(true)}
              onContinue={() => setConfirming(true)}
            />
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
      <PurchaseDialog purchase={confirmation} />
    </>
  );
}
