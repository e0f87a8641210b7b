import { useState } from 'react';
import { BadgePercent, Ban } from 'lucide-react';
import { CreateOfferInput, type OfferDto } from '../../../common/trial-schemas';
import { OFFER_TEXTS } from '../../../common/trial-texts';
import { EmptyState } from '../../components/empty-state';
import { Loaded } from '../../components/load-states';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { formatCalendarDate } from '../../lib/format';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';
import { CreatorToolSection, DAY_MS, dateInput, FormActions, FormFailure, serverText, TierOptions, toolRowClass, useLiveTiers } from './creator-tool-section';

const AUDIENCE = { new: 'New fans', expired: 'Expired subscribers' } as const;

/**
 * Offers on the Subscription Tiers tab (issue 27 item 5): N% off the first period of a tier (or
 * all) for new fans or for expired subscribers, between two days; the subscribe page shows it to
 * the fans it applies to, and the server charges it. End one early (asks first).
 */
export function OffersSection() {
  return (
    <CreatorToolSection
      id="offers"
      title="Offers"
      intro="A discount on the first period, for new fans or to win back expired subscribers."
      addLabel="New offer"
      renderForm={(onDone) => <OfferForm onDone={onDone} />}
    >
      <OfferList />
    </CreatorToolSection>
  );
}

function OfferForm({ onDone }: { onDone: () => void }) {
  const utils = trpc.useUtils();
  const { live } = useLiveTiers();
  const create = trpc.offers.create.useMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useZodForm(CreateOfferInput, {
    defaultValues: { tierId: '', audience: 'new', percent: 20, startsAt: dateInput(new Date()), endsAt: dateInput(new Date(Date.now() + 14 * DAY_MS)) },
    // refused values are said beside their fields; a toast would cover the form's button
    invalidToast: null,
  });
  const onSubmit = form.submit(async (values) => {
    setFailure(null);
    try {
      // from the start day's beginning (now, for today) to the end day's end (UTC)
      const startsAt = values.startsAt.getTime() <= Date.now() ? new Date() : values.startsAt;
      await create.mutateAsync({ ...values, startsAt, endsAt: new Date(values.endsAt.getTime() + DAY_MS - 1) });
      await Promise.all([utils.offers.listMine.invalidate(), utils.subscriptions.subscribePage.invalidate()]);
      notify.success({ title: OFFER_TEXTS.created });
      onDone();
    } catch (error) {
      // a refused field is said beside it (focused); anything else inside the form, above the button
      setFailure(form.showServerErrors(error) ? null : serverText(error, OFFER_TEXTS.failed));
    }
  });
  return (
    <form aria-label="New offer" className="flex flex-col gap-5" onSubmit={onSubmit} noValidate>
      <h3 className="text-lg font-semibold tracking-tight">New offer</h3>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Tier" error={form.error('tierId')}>
          {(field) => (
            <Select {...field} {...form.field('tierId')}>
              <option value="">All tiers</option>
              <TierOptions tiers={live} />
            </Select>
          )}
        </FormField>
        <FormField label="For" error={form.error('audience')}>
          {(field) => (
            <Select {...field} {...form.field('audience')}>
              <option value="new">{AUDIENCE.new}</option>
              <option value="expired">{AUDIENCE.expired}</option>
            </Select>
          )}
        </FormField>
      </div>
      <div className="grid gap-5 sm:grid-cols-3">
        <FormField label="Discount (%)" error={form.error('percent')} hint="Off the first period, 1 to 90">
          {(field) => <Input {...field} {...form.field('percent')} type="number" inputMode="numeric" min={1} max={90} step={1} />}
        </FormField>
        <FormField label="Starts" error={form.error('startsAt')}>
          {(field) => <Input {...field} {...form.field('startsAt')} type="date" />}
        </FormField>
        <FormField label="Ends" error={form.error('endsAt')}>
          {(field) => <Input {...field} {...form.field('endsAt')} type="date" />}
        </FormField>
      </div>
      <FormFailure message={failure} />
      <FormActions onCancel={onDone} pending={create.isPending} submitLabel="Create offer" />
    </form>
  );
}

function offerStatus(o: OfferDto): { label: string; live: boolean } {
  const now = Date.now();
  if (o.disabledAt) return { label: `Ended ${formatCalendarDate(o.disabledAt)}`, live: false };
  if (new Date(o.endsAt).getTime() <= now) return { label: `Ended ${formatCalendarDate(o.endsAt)}`, live: false };
  if (new Date(o.startsAt).getTime() > now) return { label: `Starts ${formatCalendarDate(o.startsAt)}, ends ${formatCalendarDate(o.endsAt)}`, live: true };
  return { label: `Running until ${formatCalendarDate(o.endsAt)}`, live: true };
}

function OfferList() {
  const offers = trpc.offers.listMine.useQuery();
  const utils = trpc.useUtils();
  const end = trpc.offers.disable.useMutation();
  return (
    <Loaded query={offers} loading="Loading offers" failed="Could not load your offers." rows={1} rowClassName="h-20 w-full rounded-card" placeholderClassName="gap-3">
      {(list) =>
        list.length === 0 ? (
          <EmptyState icon={BadgePercent}>No offers yet.</EmptyState>
        ) : (
          <ul aria-label="Your offers" className="flex flex-col gap-3">
            {list.map((o) => {
              const status = offerStatus(o);
              const name = `${o.percent}% off ${o.tierName ?? 'all tiers'} for ${AUDIENCE[o.audience].toLowerCase()}`;
              return (
                <li key={o.id} aria-label={name} className={toolRowClass(status.live)}>
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold text-foreground">{name}</p>
                    <p className="mt-1 text-sm text-muted">First period only · {status.label}</p>
                  </div>
                  {status.live ? (
                    <ConfirmDialog
                      title="End offer?"
                      description={OFFER_TEXTS.disableConfirm}
                      confirmLabel="End offer"
                      onConfirm={async () => {
                        try {
                          await end.mutateAsync({ id: o.id });
                          await Promise.all([utils.offers.listMine.invalidate(), utils.subscriptions.subscribePage.invalidate()]);
                          notify.success({ title: OFFER_TEXTS.disabled });
                        } catch (error) {
                          notify.error({ title: 'Error', description: serverText(error, OFFER_TEXTS.failed) });
                        }
                      }}
                      trigger={
                        <Button variant="ghost" size="sm" aria-label={`End ${name}`}>
                          <Ban aria-hidden="true" className="size-4" />
                          End offer
                        </Button>
                      }
                    />
                  ) : null}
                </li>
              );
            })}
          </ul>
        )
      }
    </Loaded>
  );
}
