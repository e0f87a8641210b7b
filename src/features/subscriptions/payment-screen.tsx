import { BadgeCheck, Crown, SearchX } from 'lucide-react';
import { BILLING_TEXTS } from '../../../common/texts';
import { CallToActionCard } from '../../components/call-to-action-card';
import { LoadError, LoadingPlaceholder } from '../../components/load-states';
import { TierPrice } from '../../components/tier-price';
import { Button } from '../../components/ui/button';
import { formatCalendarDate } from '../../lib/format';
import { errorCode, trpc } from '../../lib/trpc';
import { PaymentHistory } from './payment-history';
import { PurchaseDialog } from './purchase-dialog';
import { SavedCardSection } from './saved-card';
import { premiumOffer } from './purchase-offer';
import { TestCardsSection } from './test-cards';
import { usePurchase } from './use-purchase';

/**
 * The body of /settings/account/payment?tier={tierId} (spec part 2 §2, issue 11 item 5): with a
 * tier, that plan's name, description, price and interval and Subscribe Now; then the cards on file
 * ('No Payment Methods Added' while there are none; issue 47 item 6) and the Payment History box
 * with each purchase's receipt. The route frames it (heading, who takes the money, Back to
 * /settings/account).
 */
export function PaymentScreen({ tierId, checkout, card }: { tierId?: string; checkout?: 'cancelled'; card?: 'added' | 'cancelled' }) {
  const provider = trpc.subscriptions.provider.useQuery();
  const stripe = provider.data?.provider === 'stripe';
  return (
    <div className="flex flex-col gap-6">
      {checkout === 'cancelled' ? (
        <p role="status" className="rounded-card border border-border bg-surface-raised px-4 py-3 text-sm text-muted">
          Checkout cancelled: nothing was charged.
        </p>
      ) : null}
      {tierId ? <PlanBox tierId={tierId} /> : null}
      {/* with Stripe, the card on file for tips and unlocks (issue 27 item 6); with the built-in provider, test cards (issue 47 item 6) */}
      {!provider.data ? null : stripe ? <SavedCardSection returned={card} /> : <TestCardsSection />}
      <PaymentHistory />
    </div>
  );
}

function PlanBox({ tierId }: { tierId: string }) {
  const tier = trpc.subscriptions.premiumTier.useQuery({ tierId });
  const mine = trpc.subscriptions.mine.useQuery();
  const provider = trpc.subscriptions.provider.useQuery();
  const purchase = usePurchase();

  if (errorCode(tier.error) === 'NOT_FOUND') {
    return (
      <section role="alert" className="flex flex-col items-center gap-3 rounded-card border border-danger/30 bg-danger/5 px-6 py-10 text-center">
        <SearchX aria-hidden="true" className="size-7 text-danger" />
        <p className="font-semibold text-foreground">{BILLING_TEXTS.premiumTierMissing}</p>
      </section>
    );
  }
  if (tier.isError && !tier.data) return <LoadError message={BILLING_TEXTS.loadFailed} onRetry={() => void tier.refetch()} />;
  if (!tier.data) return <LoadingPlaceholder label="Loading plan" rows={1} rowClassName="h-56 w-full rounded-card" />;

  const plan = tier.data;
  const premium = mine.data?.find((s) => s.creator === null && s.status !== 'ended') ?? null;

  // nothing is charged until the fan presses Pay in the confirmation
  const onSubscribe = () =>
    purchase.confirm(
      premiumOffer(plan, {
        now: new Date(),
        provider: provider.data?.provider ?? null,
      }),
    );

  return (
    <CallToActionCard headingId="plan-heading" tone="premium-quiet" className="p-5 md:p-6">
      <div className="flex items-center gap-2">
        <Crown aria-hidden="true" className="size-5 text-amber-300" />
        <h2 id="plan-heading" className="text-xl font-semibold tracking-tight">
          {plan.name}
        </h2>
      </div>
      {plan.description ? <p className="mt-2 text-sm text-muted">{plan.description}</p> : null}
      <TierPrice tier={plan} look="plan" testId="plan-price" className="mt-4" />
      <p className="mt-1 text-sm text-subtle">{plan.periodDays} days of Premium from the day you pay.</p>
      {premium ? (
        <p role="status" className="mt-5 flex items-center gap-2 text-sm font-medium text-emerald-300">
          <BadgeCheck aria-hidden="true" className="size-4" />
          You are Premium · {premium.cancelAtPeriodEnd ? 'ends on' : 'renews on'} {formatCalendarDate(premium.currentPeriodEnd)}
        </p>
      ) : (
        <Button
          size="lg"
          className="mt-5 w-full sm:w-auto"
          onClick={onSubscribe}
          disabled={purchase.pending || mine.isPending}
          aria-busy={purchase.pending || undefined}
        >
          {purchase.pending ? 'Processing...' : 'Subscribe Now'}
        </Button>
      )}
      <PurchaseDialog purchase={purchase} />
    </CallToActionCard>
  );
}
