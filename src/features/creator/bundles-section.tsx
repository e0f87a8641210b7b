import { Package } from 'lucide-react';
import type { TierDto } from '../../../common/billing-dtos';
import { BUNDLE_PERIODS, BundleForm, toBundles, type TierBundleDto } from '../../../common/bundle-schemas';
import { BUNDLE_TEXTS } from '../../../common/bundle-texts';
import { formatRand } from '../../../common/format';
import { EmptyState } from '../../components/empty-state';
import { Loaded } from '../../components/load-states';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';
import { CreatorToolSection, FormActions, serverText, toolRowClass, useLiveTiers } from './creator-tool-section';

/**
 * Bundles on the Subscription Tiers tab (issue 27 item 5): per live weekly or monthly tier, the
 * discount for 3, 6 and 12 periods bought at once (empty: not offered), and what fans then pay.
 * The server checks the same rules (1-75 %, whole numbers, the creator's own tier).
 */
export function BundlesSection() {
  const { query, live } = useLiveTiers();
  const bundles = trpc.bundles.listMine.useQuery();
  return (
    <CreatorToolSection id="bundles" title={BUNDLE_TEXTS.heading} intro={BUNDLE_TEXTS.managerIntro}>
      <Loaded query={query} loading="Loading bundles" failed="Could not load your bundles." rows={1} rowClassName="h-40 w-full rounded-card" placeholderClassName="gap-3">
        {() =>
          live.length === 0 ? (
            <EmptyState icon={Package}>Add a tier first.</EmptyState>
          ) : (
            <ul aria-label="Bundles by tier" className="flex flex-col gap-3">
              {live.map((tier) => (
                <li key={tier.id} aria-label={`${tier.name} bundles`} className={toolRowClass(true)}>
                  {tier.paymentInterval === 'annually' ? (
                    <p className="text-sm text-muted">
                      <span className="font-semibold text-foreground">{tier.name}</span> · {BUNDLE_TEXTS.annualNotAllowed}
                    </p>
                  ) : bundles.data ? (
                    <TierBundleForm tier={tier} saved={bundles.data.filter((b) => b.tierId === tier.id)} />
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </CreatorToolSection>
  );
}

function TierBundleForm({ tier, saved }: { tier: TierDto; saved: TierBundleDto[] }) {
  const utils = trpc.useUtils();
  const set = trpc.bundles.set.useMutation();
  const percentOf = (periods: number) => saved.find((b) => b.periods === periods)?.percent ?? '';
  const form = useZodForm(BundleForm, { defaultValues: { p3: percentOf(3), p6: percentOf(6), p12: percentOf(12) } });
  const onSubmit = form.submit(async (values) => {
    try {
      await set.mutateAsync({ tierId: tier.id, bundles: toBundles(values) });
      await Promise.all([utils.bundles.listMine.invalidate(), utils.subscriptions.subscribePage.invalidate()]);
      notify.success({ title: BUNDLE_TEXTS.saved });
    } catch (error) {
      const validation = form.showServerErrors(error);
      notify.error({ title: 'Error', description: validation?.messages[0] ?? serverText(error, BUNDLE_TEXTS.percentInvalid) });
    }
  });
  return (
    <form aria-label={`${tier.name} bundles`} className="flex w-full flex-col gap-4" onSubmit={onSubmit} noValidate>
      <p className="font-semibold text-foreground">
        {tier.name} <span className="font-normal text-muted">· {formatRand(tier.discountedPrice)} each</span>
      </p>
      <div className="grid gap-4 sm:grid-cols-3">
        {BUNDLE_PERIODS.map((periods) => {
          const b = saved.find((s) => s.periods === periods);
          return (
            <FormField
              key={periods}
              label={BUNDLE_TEXTS.percentLabel(periods, tier.paymentInterval)}
              error={form.error(`p${periods}`)}
              hint={b ? `Fans pay ${formatRand(b.total)} (save ${formatRand(b.saving)})` : 'Empty: not offered'}
            >
              {(field) => <Input {...field} {...form.field(`p${periods}`)} type="number" inputMode="numeric" min={1} max={75} step={1} placeholder="—" />}
            </FormField>
          );
        })}
      </div>
      <FormActions pending={set.isPending} submitLabel={BUNDLE_TEXTS.save} />
    </form>
  );
}
