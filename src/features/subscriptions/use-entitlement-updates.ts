import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BILLING_TEXTS } from '../../../common/texts';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { refreshEntitlements } from './entitlement';

// one line of the card texts (common/card-texts.ts), kept here so the app shell does not carry them all
const ONE_OFF_PAID = 'Payment received: it shows here in a moment.';

/**
 * Mounted once in the app shell: when one of the user's subscriptions starts or lapses (in this
 * tab, another tab, a webhook or the renewal job), their open feed, profile and post pages unlock
 * or lock that creator's premium posts without a reload.
 */
export function useEntitlementUpdates(): void {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  useRealtimeEvent('entitlement:changed', ({ subject }) => void refreshEntitlements(queryClient, utils, subject));

  // Back from Stripe Checkout (`?checkout=success`): the subscription starts when Stripe's webhook
  // arrives, a moment later, and the event above unlocks the page then. Say so meanwhile.
  useEffect(() => {
    const checkout = new URLSearchParams(window.location.search).get('checkout');
    if (checkout === 'success') notify.success({ title: BILLING_TEXTS.checkoutSuccess }, { id: 'checkout-success' });
    // a tip or an unlock paid on Stripe's page (or after 3-D Secure): the webhook writes it a moment later
    if (checkout === 'paid') notify.success({ title: ONE_OFF_PAID }, { id: 'checkout-success' });
  }, []);
}
