import { CreditCard, FlaskConical, Star } from 'lucide-react';
import { useId, useState } from 'react';
import { TEST_CARD_BRANDS, TEST_CARDS, type TestCardBrand, type TestCardDto } from '../../../common/test-cards';
import { BILLING_TEXTS } from '../../../common/texts';
import { WALLET_TEXTS } from '../../../common/wallet-texts';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Select } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';

const cardName = (card: Pick<TestCardDto, 'brand' | 'last4'>) => WALLET_TEXTS.testCardName(TEST_CARDS[card.brand].name, card.last4);

/** The server's refusal in a toast; a rate limit already has its own (the client's error link). */
function toastError(error: unknown) {
  if (errorCode(error) !== 'TOO_MANY_REQUESTS') notify.error({ title: 'Error', description: error instanceof Error ? error.message : WALLET_TEXTS.failed });
}

/**
 * Settings > Payment's cards with the built-in provider (issue 47 item 6): the fan's test cards,
 * each labelled "Test card", the default marked, Make default, Remove (asks first), and Add test
 * card for the ones not in the wallet yet. With none, the spec's 'No Payment Methods Added' heads
 * the box. Nothing here is ever charged: the built-in provider calls no card provider.
 */
export function TestCardsSection() {
  const mine = trpc.cards.mine.useQuery();
  if (!mine.data) return <Skeleton className="h-40 w-full rounded-card" data-testid="wallet-loading" />;
  if (mine.data.provider !== 'builtin') return null;
  return <Wallet cards={mine.data.testCards} />;
}

function Wallet({ cards }: { cards: TestCardDto[] }) {
  return (
    <section aria-labelledby="wallet-heading" data-testid="wallet" className="flex flex-col gap-4 rounded-card border border-border bg-surface p-4 md:p-5">
      <div className="flex flex-col gap-1">
        <h2 id="wallet-heading" className="flex items-center gap-2 text-lg font-semibold">
          <CreditCard aria-hidden="true" className="size-5 text-violet-300" />
          {cards.length > 0 ? WALLET_TEXTS.cardsTitle : BILLING_TEXTS.noPaymentMethods}
        </h2>
        <p className="text-sm text-muted">{cards.length > 0 ? WALLET_TEXTS.testCardsHint : WALLET_TEXTS.noTestCards}</p>
      </div>
      {cards.length > 0 ? (
        <ul aria-label={WALLET_TEXTS.cardsTitle} className="flex flex-col divide-y divide-border rounded-xl border border-border">
          {cards.map((card) => (
            <CardRow key={card.id} card={card} next={card.isDefault ? cards.find((c) => c.id !== card.id) : undefined} />
          ))}
        </ul>
      ) : null}
      <AddTestCard owned={cards.map((c) => c.brand)} />
    </section>
  );
}

function CardRow({ card, next }: { card: TestCardDto; next?: TestCardDto }) {
  const utils = trpc.useUtils();
  const makeDefault = trpc.cards.makeDefault.useMutation({
    onSuccess: () => notify.success({ title: WALLET_TEXTS.madeDefault }),
    onError: toastError,
    onSettled: () => utils.cards.mine.invalidate(),
  });
  const remove = trpc.cards.removeTest.useMutation();
  const name = cardName(card);
  return (
    <li data-testid="wallet-card" className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center sm:justify-between md:p-4">
      <div className="flex min-w-0 items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-surface-raised ring-1 ring-border">
          <CreditCard aria-hidden="true" className="size-5 text-muted" />
        </span>
        <div className="flex min-w-0 flex-col gap-1">
          <p className="font-medium break-words text-foreground">{name}</p>
          <p className="flex flex-wrap items-center gap-1.5">
            <Badge variant="premium">
              <FlaskConical aria-hidden="true" className="size-3" />
              {WALLET_TEXTS.testCard}
            </Badge>
            {card.isDefault ? (
              <Badge variant="accent">
                <Star aria-hidden="true" className="size-3" />
                {WALLET_TEXTS.defaultBadge}
              </Badge>
            ) : null}
          </p>
        </div>
      </div>
      <div className="flex gap-2">
        {card.isDefault ? null : (
          <Button
            variant="secondary"
            size="sm"
            aria-label={`${WALLET_TEXTS.makeDefault}: ${name}`}
            loading={makeDefault.isPending}
            onClick={() => makeDefault.mutate({ cardId: card.id })}
          >
            {WALLET_TEXTS.makeDefault}
          </Button>
        )}
        <ConfirmDialog
          title={WALLET_TEXTS.removeTitle}
          description={next ? WALLET_TEXTS.removeDefaultBody(name, cardName(next)) : WALLET_TEXTS.removeBody(name)}
          confirmLabel={WALLET_TEXTS.remove}
          onConfirm={async () => {
            try {
              await remove.mutateAsync({ cardId: card.id });
              notify.success({ title: WALLET_TEXTS.removed });
            } catch (error) {
              toastError(error);
            }
            await utils.cards.mine.invalidate();
          }}
          trigger={
            <Button variant="ghost" size="sm" aria-label={`${WALLET_TEXTS.remove}: ${name}`} className="text-rose-300 hover:text-rose-200">
              {WALLET_TEXTS.remove}
            </Button>
          }
        />
      </div>
    </li>
  );
}

function AddTestCard({ owned }: { owned: TestCardBrand[] }) {
  const utils = trpc.useUtils();
  const selectId = useId();
  const left = TEST_CARD_BRANDS.filter((b) => !owned.includes(b));
  const [picked, setPicked] = useState<TestCardBrand | ''>('');
  const brand = picked && left.includes(picked) ? picked : left[0];
  const add = trpc.cards.addTest.useMutation({
    onSuccess: () => notify.success({ title: WALLET_TEXTS.added }),
    onError: toastError,
    onSettled: () => utils.cards.mine.invalidate(),
  });
  if (!brand) return <p className="text-sm text-subtle">{WALLET_TEXTS.allAdded}</p>;
  return (
    <form
      className="flex flex-col gap-2 sm:flex-row sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate({ brand });
      }}
    >
      <div className="flex flex-1 flex-col gap-1.5">
        <label htmlFor={selectId} className="text-sm font-medium text-foreground">
          {WALLET_TEXTS.testCard}
        </label>
        <Select id={selectId} value={brand} onChange={(event) => setPicked(event.target.value as TestCardBrand)}>
          {left.map((b) => (
            <option key={b} value={b}>
              {cardName({ brand: b, last4: TEST_CARDS[b].last4 })}
            </option>
          ))}
        </Select>
      </div>
      <Button type="submit" loading={add.isPending}>
        {WALLET_TEXTS.addTestCard}
      </Button>
    </form>
  );
}
