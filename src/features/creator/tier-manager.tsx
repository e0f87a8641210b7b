import { Link } from '@tanstack/react-router';
import { Archive, Layers, Pencil, Plus, Trash2, Users } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import type { TierDto } from '../../../common/billing-dtos';
import { BILLING_TEXTS } from '../../../common/texts';
import { EmptyState } from '../../components/empty-state';
import { Loaded } from '../../components/load-states';
import { TierPrice } from '../../components/tier-price';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc, type CurrentUser } from '../../lib/trpc';
import { CreatorEarnings } from './creator-earnings';
import { CreatorSubscribers } from './creator-subscribers';
import { TierForm } from './tier-form';

// only creators on this tab load the trial links' form and list
const TrialLinks = lazy(() => import('./trial-links').then((m) => ({ default: m.TrialLinks })));
const OffersSection = lazy(() => import('./offers-section').then((m) => ({ default: m.OffersSection })));
const BundlesSection = lazy(() => import('./bundles-section').then((m) => ({ default: m.BundlesSection })));

/**
 * The Subscription Tiers tab of /create (spec part 2 §2; issue 11 items 1 and 8): the creator's
 * tiers by price ascending with their active subscribers, then the add/edit form in place of the
 * list and back after save or cancel; delete after a confirmation (a tier with subscribers is
 * archived instead, and the creator is told). Below: earnings and subscribers.
 */
export function TierManager({ user }: { user: CurrentUser }) {
  const [editing, setEditing] = useState<TierDto | 'new' | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  const closeForm = () => {
    setEditing(null);
    requestAnimationFrame(() => addButton.current?.focus());
  };

  return (
    <div className="flex flex-col gap-10">
      <section aria-labelledby="tiers-heading" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 id="tiers-heading" className="text-xl font-semibold tracking-tight">
              Subscription Tiers
            </h2>
            <p className="text-sm text-muted">
              Fans choose one on{' '}
              <Link to="/$username/subscribe" params={{ username: user.username }} className="font-medium text-violet-300 underline underline-offset-4">
                your subscribe page
              </Link>
              .
            </p>
          </div>
          {editing === null ? (
            <Button ref={addButton} onClick={() => setEditing('new')}>
              <Plus aria-hidden="true" className="size-4" />
              Add Tier
            </Button>
          ) : null}
        </div>
        {editing === null ? (
          <TierList onEdit={setEditing} />
        ) : (
          <div className="rounded-card border border-border bg-surface p-5 md:p-6">
            <TierForm tier={editing === 'new' ? null : editing} onDone={closeForm} />
          </div>
        )}
      </section>
      <Suspense fallback={null}>
        <TrialLinks />
        <OffersSection />
        <BundlesSection />
      </Suspense>
      <CreatorEarnings />
      <CreatorSubscribers />
    </div>
  );
}

function TierList({ onEdit }: { onEdit: (tier: TierDto) => void }) {
  const tiers = trpc.tiers.listMine.useQuery();

  return (
    <Loaded
      query={tiers}
      loading="Loading subscription tiers"
      failed={BILLING_TEXTS.loadFailed}
      rows={2}
      rowClassName="h-24 w-full rounded-card"
      placeholderClassName="gap-3"
    >
      {(list) =>
        list.length === 0 ? (
          <EmptyState icon={Layers}>{BILLING_TEXTS.noTiers} Add one so fans can subscribe.</EmptyState>
        ) : (
          <ul aria-label="Your subscription tiers" className="flex flex-col gap-3">
            {list.map((tier) => (
              <TierRow key={tier.id} tier={tier} onEdit={() => onEdit(tier)} />
            ))}
          </ul>
        )
      }
    </Loaded>
  );
}

function TierRow({ tier, onEdit }: { tier: TierDto; onEdit: () => void }) {
  const utils = trpc.useUtils();
  const remove = trpc.tiers.delete.useMutation();
  const archived = tier.archivedAt !== null;

  const onDelete = async () => {
    try {
      const { outcome } = await remove.mutateAsync({ id: tier.id });
      notify.success({ title: BILLING_TEXTS.tierDeleted, description: outcome === 'archived' ? BILLING_TEXTS.tierArchived : undefined });
      await Promise.all([utils.tiers.listMine.invalidate(), utils.creatorStats.earnings.invalidate(), utils.subscriptions.subscribePage.invalidate(), utils.creators.firstSteps.invalidate(), utils.profiles.byUsername.invalidate()]);
    } catch (error) {
      const code = errorCode(error);
      notify.error({
        title: 'Error',
        description: isServerError(error) && code !== 'INTERNAL_SERVER_ERROR' ? error.message : BILLING_TEXTS.tierDeleteFailed,
      });
    }
  };

  return (
    <li
      aria-label={tier.name}
      className={cn('flex flex-col gap-4 rounded-card border border-border bg-surface p-4 sm:flex-row sm:items-center md:p-5', archived && 'border-dashed')}
    >
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-semibold text-foreground">
          <span className="break-words">{tier.name}</span>
          {archived ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-surface-raised px-2 py-0.5 text-xs font-medium text-muted ring-1 ring-border-strong">
              <Archive aria-hidden="true" className="size-3" />
              Archived
            </span>
          ) : null}
        </p>
        <TierPrice tier={tier} look="row" testId="tier-price" className="mt-1" />
        {tier.description ? <p className="mt-1 line-clamp-2 text-sm text-muted">{tier.description}</p> : null}
        <p className="mt-2 inline-flex items-center gap-1.5 text-xs text-subtle" data-testid="tier-subscribers">
          <Users aria-hidden="true" className="size-3.5" />
          {tier.activeSubscribers} active {tier.activeSubscribers === 1 ? 'subscriber' : 'subscribers'}
          {archived ? ' · hidden from new fans' : ''}
        </p>
      </div>
      {archived ? null : (
        <div className="flex shrink-0 gap-2">
          <Button variant="secondary" size="sm" onClick={onEdit} aria-label={`Edit ${tier.name}`}>
            <Pencil aria-hidden="true" className="size-4" />
            Edit
          </Button>
          <ConfirmDialog
            title={`Delete ${tier.name}?`}
            description={
              tier.activeSubscribers > 0
                ? `${tier.activeSubscribers} ${tier.activeSubscribers === 1 ? 'fan is' : 'fans are'} subscribed: the tier will be archived instead, hidden from new fans while current subscribers keep it.`
                : 'Fans will no longer see this tier on your subscribe page.'
            }
            confirmLabel="Delete tier"
            onConfirm={onDelete}
            trigger={
              <Button variant="ghost" size="sm" aria-label={`Delete ${tier.name}`}>
                <Trash2 aria-hidden="true" className="size-4" />
                Delete
              </Button>
            }
          />
        </div>
      )}
    </li>
  );
}
