import { createFileRoute } from '@tanstack/react-router';
import { RECEIPT_TEXTS } from '../../common/wallet-texts';
import { SettingsPage } from '../features/settings/settings-page';
import { ReceiptView } from '../features/subscriptions/receipt-view';

/**
 * /settings/account/payment/receipts/{paymentId} (issue 47 item 6): one purchase's receipt, behind
 * the `_authed` gate, in a route chunk of its own. Not nested under the payment screen's route: a
 * page of its own whose Back goes to it. The server answers only the payer (anyone else: not found).
 */
export const Route = createFileRoute('/_authed/settings_/account_/payment_/receipts/$paymentId')({
  component: ReceiptRoute,
});

function ReceiptRoute() {
  const { paymentId } = Route.useParams();
  return (
    <SettingsPage title={RECEIPT_TEXTS.title} back="/settings/account/payment">
      <ReceiptView paymentId={paymentId} />
    </SettingsPage>
  );
}
