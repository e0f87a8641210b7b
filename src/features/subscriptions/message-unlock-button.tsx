import { formatRand } from '../../../common/format';
import { PAID_MESSAGE_TEXTS as T } from '../../../common/paid-message-texts';
import { Button } from '../../components/ui/button';
import { trpc } from '../../lib/trpc';
import { PurchaseDialog } from './purchase-dialog';
import { messageUnlockOffer } from './purchase-offer';
import { usePurchase } from './use-purchase';

/** 'Unlock for R…': the one purchase dialog, then one charge (messages.unlock) however often Pay is pressed. */
export function MessageUnlockButton({ messageId, price }: { messageId: string; price: string }) {
  const purchase = usePurchase();
  const provider = trpc.subscriptions.provider.useQuery(undefined, { staleTime: 60_000 });
  return (
    <>
      <Button
        size="sm"
        onClick={() => purchase.confirm(messageUnlockOffer({ id: messageId, price }, { title: T.dialogTitle, planName: T.planName, provider: provider.data?.provider ?? null }))}
      >
        {T.unlockFor(formatRand(price))}
      </Button>
      <PurchaseDialog purchase={purchase} />
    </>
  );
}
