import { useState } from 'react';
import { Ban, Copy, Gift } from 'lucide-react';
import { CreateTrialLinkInput, type TrialLinkDto } from '../../../common/trial-schemas';
import { TRIAL_TEXTS } from '../../../common/trial-texts';
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

const linkUrl = (code: string) => `${window.location.origin}/trial/${code}`;

/**
 * Free trial links on the Subscription Tiers tab (issue 27 item 5): make one (a tier, the free
 * days, how many fans may claim it, the last day it can be claimed), copy its link, see how many
 * claimed it, and disable it (asks first; fans who claimed keep their trial).
 */
export function TrialLinks() {
  return (
    <CreatorToolSection
      id="trials"
      title="Free trial links"
      intro="Give new fans a few days of a tier for free. It renews as paid at the end unless they cancel."
      addLabel="New trial link"
      renderForm={(onDone) => <TrialLinkForm onDone={onDone} />}
    >
      <TrialLinkList />
    </CreatorToolSection>
  );
}

function TrialLinkForm({ onDone }: { onDone: () => void }) {
  const utils = trpc.useUtils();
  const { live } = useLiveTiers();
  const create = trpc.trials.create.useMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useZodForm(CreateTrialLinkInput, {
    defaultValues: { tierId: '', days: 7, maxClaims: 50, expiresAt: dateInput(new Date(Date.now() + 30 * DAY_MS)) },
    // refused values are said beside their fields; a toast would cover the form's button
    invalidToast: null,
  });

  const onSubmit = form.submit(async (values) => {
    setFailure(null);
    try {
      // the chosen day is the last one it can be claimed: it expires at that day's end (UTC)
      const expiresAt = new Date(values.expiresAt.getTime() + DAY_MS - 1);
      const link = await create.mutateAsync({ ...values, expiresAt });
      await utils.trials.listMine.invalidate();
      notify.success({ title: TRIAL_TEXTS.created, description: linkUrl(link.code) });
      onDone();
    } catch (error) {
      // a refused field is said beside it (focused); anything else inside the form, above the button
      setFailure(form.showServerErrors(error) ? null : serverText(error, TRIAL_TEXTS.claimFailed));
    }
  });

  return (
    <form aria-label="New trial link" className="flex flex-col gap-5" onSubmit={onSubmit} noValidate>
      <h3 className="text-lg font-semibold tracking-tight">New trial link</h3>
      <FormField label="Tier" error={form.error('tierId')}>
        {(field) => (
          <Select {...field} {...form.field('tierId')}>
            <option value="">{live.length === 0 ? 'Add a tier first' : 'Choose a tier'}</option>
            <TierOptions tiers={live} />
          </Select>
        )}
      </FormField>
      <div className="grid gap-5 sm:grid-cols-3">
        <FormField label="Free days" error={form.error('days')} hint="1 to 90">
          {(field) => <Input {...field} {...form.field('days')} type="number" inputMode="numeric" min={1} max={90} step={1} />}
        </FormField>
        <FormField label="Claims" error={form.error('maxClaims')} hint="How many fans may claim it">
          {(field) => <Input {...field} {...form.field('maxClaims')} type="number" inputMode="numeric" min={1} step={1} />}
        </FormField>
        <FormField label="Last day to claim" error={form.error('expiresAt')}>
          {(field) => <Input {...field} {...form.field('expiresAt')} type="date" />}
        </FormField>
      </div>
      <FormFailure message={failure} />
      <FormActions onCancel={onDone} pending={create.isPending} submitLabel="Create link" />
    </form>
  );
}

function TrialLinkList() {
  const links = trpc.trials.listMine.useInfiniteQuery({}, { getNextPageParam: (page) => page.nextCursor });
  return (
    <Loaded query={links} loading="Loading trial links" failed="Could not load your trial links." rows={2} rowClassName="h-20 w-full rounded-card" placeholderClassName="gap-3">
      {(data) => {
        const all = data.pages.flatMap((p) => p.links);
        if (all.length === 0) return <EmptyState icon={Gift}>No trial links yet.</EmptyState>;
        return (
          <>
            <ul aria-label="Your trial links" className="flex flex-col gap-3">
              {all.map((link) => (
                <TrialLinkRow key={link.id} link={link} />
              ))}
            </ul>
            {links.hasNextPage ? (
              <Button variant="outline" className="self-center" loading={links.isFetchingNextPage} onClick={() => void links.fetchNextPage()}>
                Show more
              </Button>
            ) : null}
          </>
        );
      }}
    </Loaded>
  );
}

function linkStatus(link: TrialLinkDto): { label: string; live: boolean } {
  if (link.disabledAt) return { label: 'Disabled', live: false };
  if (new Date(link.expiresAt).getTime() <= Date.now()) return { label: 'Expired', live: false };
  if (link.claims >= link.maxClaims) return { label: 'Fully claimed', live: false };
  return { label: `Claimable until ${formatCalendarDate(link.expiresAt)}`, live: true };
}

function TrialLinkRow({ link }: { link: TrialLinkDto }) {
  const utils = trpc.useUtils();
  const disable = trpc.trials.disable.useMutation();
  const status = linkStatus(link);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(linkUrl(link.code));
      notify.success({ title: 'Link copied' });
    } catch {
      notify.error({ title: 'Error', description: `Copy it by hand: ${linkUrl(link.code)}` });
    }
  };
  const onDisable = async () => {
    try {
      await disable.mutateAsync({ id: link.id });
      notify.success({ title: TRIAL_TEXTS.disabledDone });
      await utils.trials.listMine.invalidate();
    } catch (error) {
      notify.error({ title: 'Error', description: serverText(error, TRIAL_TEXTS.claimFailed) });
    }
  };
  return (
    <li aria-label={`${link.days} days free of ${link.tierName}`} className={toolRowClass(status.live)}>
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-foreground">
          {link.days} days free · {link.tierName}
        </p>
        <p className="mt-1 text-sm text-muted" data-testid="trial-claims">
          {link.claims} of {link.maxClaims} claimed · {status.label}
        </p>
        <p className="mt-1 truncate font-mono text-xs text-subtle">/trial/{link.code}</p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button variant="secondary" size="sm" onClick={() => void copy()} aria-label={`Copy the link of ${link.days} days free of ${link.tierName}`}>
          <Copy aria-hidden="true" className="size-4" />
          Copy link
        </Button>
        {link.disabledAt ? null : (
          <ConfirmDialog
            title="Disable trial link?"
            description={TRIAL_TEXTS.disableConfirm}
            confirmLabel="Disable link"
            onConfirm={onDisable}
            trigger={
              <Button variant="ghost" size="sm" aria-label={`Disable the link of ${link.days} days free of ${link.tierName}`}>
                <Ban aria-hidden="true" className="size-4" />
                Disable
              </Button>
            }
          />
        )}
      </div>
    </li>
  );
}
