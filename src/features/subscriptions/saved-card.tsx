import { CreditCard, Lock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { CARD_TEXTS } from '../../../common/card-texts';
import { BILLING_TEXTS } from '../../../common/texts';
import { WALLET_TEXTS } from '../../../common/wallet-texts';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Skeleton } from '../../components/ui/skeleton';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';

/** How long the page waits for Stripe's webhook after the fan added a card (it usually takes a second). */
const WAIT_FOR_WEBHOOK_MS = 30_000;

const brandName = (brand: string) => (brand ? brand.charAt(0).toUpperCase() + brand.slice(1) : 'Card');

/**
 * Settings > Payment's card on file (issue 27 item 6): with Stripe, the fan's card as brand and
 * last four digits, Add a card / Replace card (Stripe's hosted page: the number never reaches this
 * site) and Remove card, which asks first. Coming back from Stripe (`card=added`), the card shows
 * once Stripe's webhook stored it: the query is asked again until then. It is the card tips and
 * unlocks charge, so it is marked Default. The built-in provider's wallet is ./test-cards.tsx.
 */
export function SavedCardSection({ returned }: { returned?: 'added' | 'cancelled' }) {
  const utils = trpc.useUtils();
  const [openedAt] = useState(() => Date.now());
  const mine = trpc.cards.mine.useQuery(undefined, {
    refetchInterval: (query) => (returned === 'added' && !query.state.data?.card && Date.now() - openedAt < WAIT_FOR_WEBHOOK_MS ? 1500 : false),
  });
  const add = trpc.cards.add.useMutation({
    onSuccess: (result) => window.location.assign(result.url),
    onError: (error) => {
      if (errorCode(error) !== 'TOO_MANY_REQUESTS') notify.error({ title: 'Error', description: error.message });
    },
  });
  const remove = trpc.cards.remove.useMutation();
  const card = mine.data?.card ?? null;

  useEffect(() => {
    if (returned === 'added') notify.success({ title: CARD_TEXTS.addedPending }, { id: 'card-added' });
  }, [returned]);
  useEffect(() => {
    if (returned === 'added' && card) notify.success({ title: CARD_TEXTS.added }, { id: 'card-added' });
  }, [returned, card]);

  if (!mine.data) {
    return <Skeleton className="h-40 w-full rounded-card" data-testid="saved-card-loading" />;
  }
  if (mine.data.provider !== 'stripe') return null;

  return (
    <section aria-labelledby="saved-card-heading" data-testid="saved-card" className="flex flex-col gap-4 rounded-card border border-border bg-surface p-4 md:p-5">
      <h2 id="saved-card-heading" className="flex items-center gap-2 text-lg font-semibold">
        <CreditCard aria-hidden="true" className="size-5 text-violet-300" />
        {card ? CARD_TEXTS.title : BILLING_TEXTS.noPaymentMethods}
      </h2>
      {returned === 'cancelled' ? (
        <p role="status" className="text-sm text-muted">
          {CARD_TEXTS.cancelled}
        </p>
      ) : null}
      {card ? (
        <div className="flex flex-col gap-1">
          <p className="flex flex-wrap items-center gap-2 text-base font-medium text-foreground">
            <span data-testid="saved-card-name">{CARD_TEXTS.saved(brandName(card.brand), card.last4)}</span>
            <Badge variant="accent">{WALLET_TEXTS.defaultBadge}</Badge>
          </p>
          <p className="text-sm text-muted">{CARD_TEXTS.savedHint}</p>
        </div>
      ) : (
        <p className="text-sm text-muted">{CARD_TEXTS.none}</p>
      )}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button variant={card ? 'secondary' : 'primary'} onClick={() => add.mutate()} disabled={add.isPending}>
          {card ? CARD_TEXTS.replace : CARD_TEXTS.add}
        </Button>
        {card ? (
          <ConfirmDialog
            title={CARD_TEXTS.removeTitle}
            description={`${CARD_TEXTS.saved(brandName(card.brand), card.last4)}. ${CARD_TEXTS.removeBody}`}
            confirmLabel={CARD_TEXTS.remove}
            onConfirm={async () => {
              try {
                await remove.mutateAsync();
                notify.success({ title: CARD_TEXTS.removed });
              } catch (error) {
                if (errorCode(error) !== 'TOO_MANY_REQUESTS') notify.error({ title: 'Error', description: (error as Error).message });
              }
              await utils.cards.mine.invalidate();
            }}
            trigger={<Button variant="danger">{CARD_TEXTS.remove}</Button>}
          />
        ) : null}
      </div>
      <p className="flex items-center gap-2 text-xs text-subtle">
        <Lock aria-hidden="true" className="size-3.5 shrink-0" />
        {CARD_TEXTS.secureNote}
      </p>
    </section>
  );
}
