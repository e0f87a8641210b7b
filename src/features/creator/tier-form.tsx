import { useEffect, useId } from 'react';
import { TierInput, type TierFormValues } from '../../../common/billing-schemas';
import type { TierDto } from '../../../common/billing-dtos';
import { BILLING_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { useMaySell, VerifyToSellNotice } from '../../components/verify-to-sell';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';
import { TierIntervalPicker } from './tier-interval-picker';
import { TierPricePreview } from './tier-price-preview';

const toForm = (tier: TierDto | null): TierFormValues => ({
  name: tier?.name ?? '',
  description: tier?.description ?? '',
  price: tier?.price ?? '',
  paymentInterval: tier?.paymentInterval ?? 'monthly',
  discountPercentage: tier?.discountPercentage ?? null,
});

/** An empty discount box is 'no discount'; anything else goes to the schema as a number (it refuses 2.5 and 'abc'). */
const discountValue = (value: unknown) => (value === '' || value == null ? null : Number(value));

/** The server's words for a refusal it explains (a taken name, a tier gone); else the spec's fallback. */
function failureText(error: unknown, fallback: string): string {
  const code = errorCode(error);
  if (isServerError(error) && code !== 'INTERNAL_SERVER_ERROR' && code !== 'BAD_REQUEST') return error.message;
  return fallback;
}

/**
 * The tier manager's add/edit form (spec part 2 §2, §5; issue 11 item 1): name, description,
 * price (rand, 2 decimals), interval and an optional whole-number discount, checked by the same
 * schema the server parses with (common/billing-schemas.ts). Saving or cancelling goes back to
 * the list; the spec's toasts say how it went. A preview shows the card fans will see; a tier
 * with subscribers says what a price change does to them (issue 22).
 */
export function TierForm({ tier, onDone }: { tier: TierDto | null; onDone: () => void }) {
  const utils = trpc.useUtils();
  const create = trpc.tiers.create.useMutation();
  const update = trpc.tiers.update.useMutation();
  const form = useZodForm(TierInput, { defaultValues: toForm(tier) });
  const ids = useId();
  const pending = create.isPending || update.isPending;
  // a new tier is a sale: not before the creator's identity is verified (the server refuses it too)
  const maySell = useMaySell();
  const blocked = !tier && maySell === false;
  const fallback = tier ? BILLING_TEXTS.tierUpdateFailed : BILLING_TEXTS.tierAddFailed;
  const { setFocus } = form;
  // the form replaces the list: the keyboard starts in its first field
  useEffect(() => setFocus('name'), [setFocus]);

  const onSubmit = form.submit(async (values) => {
    try {
      if (tier) await update.mutateAsync({ id: tier.id, ...values });
      else await create.mutateAsync(values);
      notify.success({ title: tier ? BILLING_TEXTS.tierUpdated : BILLING_TEXTS.tierAdded });
      await Promise.all([utils.tiers.listMine.invalidate(), utils.creatorStats.earnings.invalidate(), utils.subscriptions.subscribePage.invalidate(), utils.creators.firstSteps.invalidate(), utils.profiles.byUsername.invalidate()]);
      onDone();
    } catch (error) {
      const validation = form.showServerErrors(error);
      notify.error({ title: 'Error', description: validation?.messages[0] ?? failureText(error, fallback) });
    }
  });

  const watched = form.watch();

  return (
    <form aria-label={tier ? `Edit ${tier.name}` : 'New subscription tier'} className="flex flex-col gap-5" onSubmit={onSubmit} noValidate>
      <h3 className="text-lg font-semibold tracking-tight">{tier ? `Edit ${tier.name}` : 'New subscription tier'}</h3>
      {blocked ? <VerifyToSellNotice sale="tier" /> : null}
      <FormField label="Name" error={form.error('name')}>
        {(field) => <Input {...field} {...form.field('name')} maxLength={60} autoComplete="off" placeholder="VIP Club" />}
      </FormField>
      <FormField label="Description" error={form.error('description')} hint="Optional. What fans get with this tier.">
        {(field) => (
          <textarea
            {...field}
            {...form.field('description')}
            rows={3}
            maxLength={500}
            className={cn(
              'min-h-24 w-full resize-y rounded-xl border bg-surface px-3.5 py-3 text-sm text-foreground placeholder:text-subtle',
              'transition-colors outline-none hover:border-border-strong focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40',
              field.invalid ? 'border-danger/70' : 'border-border',
            )}
          />
        )}
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Price (R)" error={form.error('price')} hint="Rand, up to 2 decimals.">
          {(field) => <Input {...field} {...form.field('price')} inputMode="decimal" autoComplete="off" placeholder="50.00" />}
        </FormField>
        <FormField label="Discount (%)" error={form.error('discountPercentage')} hint="Optional, a whole number from 0 to 100.">
          {(field) => (
            <Input
              {...field}
              {...form.field('discountPercentage', { setValueAs: discountValue })}
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              step={1}
              placeholder="0"
            />
          )}
        </FormField>
        {/* existing fans keep the price they agreed to unless it goes down (docs/payments.md) */}
        {tier && tier.activeSubscribers > 0 ? (
          <p role="note" className="rounded-xl border border-border bg-surface px-3.5 py-2.5 text-xs text-muted sm:col-span-2">
            {BILLING_TEXTS.priceChangeNote}
          </p>
        ) : null}
      </div>
      <TierIntervalPicker radio={form.field('paymentInterval')} selected={watched.paymentInterval} error={form.error('paymentInterval')} />

      <TierPricePreview id={`${ids}-preview`} price={watched.price} paymentInterval={watched.paymentInterval} discountPercentage={watched.discountPercentage} />

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" loading={pending} disabled={blocked}>
          {pending ? 'Saving...' : tier ? 'Save Changes' : 'Save Tier'}
        </Button>
      </div>
    </form>
  );
}
