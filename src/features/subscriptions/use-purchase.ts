import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useRef, useState } from 'react';
import { CARD_TEXTS } from '../../../common/card-texts';
import { PAID_MESSAGE_TEXTS } from '../../../common/paid-message-texts';
import { BILLING_TEXTS } from '../../../common/texts';
import { formatCalendarDate } from '../../lib/format';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';
import { useAttemptKeys } from './attempt-key';
import type { EntitlementSubject } from '../../../common/entitlements';
import { refreshEntitlements } from './entitlement';
import type { PurchaseItem, PurchaseOffer } from './purchase-offer';

// the pay-per-view words live in their own module; this one line keeps them out of the purchase hook's chunk
const UNLOCKED_TOAST = 'Post unlocked';

/** The key's scope: one idempotency key per confirmed offer, kept until the server answers. */
const scopeOf = (item: PurchaseItem) =>
  `${item.kind}:${item.kind === 'message' ? item.messageId : item.kind === 'post' ? item.postId : item.tierId}${item.kind === 'creator' && item.bundlePeriods ? `:${item.bundlePeriods}` : ''}`;

/** What every charge sends besides the item: one key per confirmation, and the amount the fan saw. */
interface ChargeRequest {
  idempotencyKey: string;
  confirmedAmount: string;
}

/** A charge's result: off to the provider's checkout, or done here (whose entitlement changed, the toast, where to go next). */
type Outcome = { redirect: string } | { entitlement: EntitlementSubject; toast: string; goTo: string | null };

export interface Purchase {
  /** the offer being confirmed (the dialog is open), or null */
  offer: PurchaseOffer | null;
  /** Pay was pressed and the server has not answered yet */
  pending: boolean;
  /** opens the confirmation; nothing is charged until `pay` */
  confirm: (offer: PurchaseOffer) => void;
  /** charges the offer being confirmed, once however often it is pressed */
  pay: () => Promise<void>;
  /** closes the confirmation (not while paying) */
  close: () => void;
}

/**
 * Every purchase, one path (issue 22 item 7; docs/payments.md): the page builds an offer
 * (./purchase-offer.ts), the fan confirms it in PurchaseDialog, and Pay charges it with the amount
 * the fan saw (`confirmedAmount`: the server refuses a price that changed) and one idempotency key
 * per confirmation. The key is kept until the server answers, so a double press, or Pay again
 * after a dropped connection, charges once; a server answer ends the attempt. After success the
 * spec's toasts and destinations: 'You've successfully subscribed!' and the creator's profile,
 * 'You've successfully subscribed to Premium!' and the user's own; a tier change says when it
 * takes effect; a Stripe checkout leaves for Stripe.
 */
export function usePurchase(): Purchase {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const subscribe = trpc.subscriptions.subscribe.useMutation();
  const upgrade = trpc.subscriptions.upgradePremium.useMutation();
  const unlockMessage = trpc.messages.unlock.useMutation();
  const claimTrial = trpc.trials.claim.useMutation();
  const unlock = trpc.postUnlocks.unlock.useMutation();
  const attempts = useAttemptKeys();
  const [offer, setOffer] = useState<PurchaseOffer | null>(null);
  const [pending, setPending] = useState(false);
  // a second press in the same frame, before `pending` re-renders the button disabled
  const paying = useRef(false);

  const confirm = useCallback((next: PurchaseOffer) => {
    if (!paying.current) setOffer(next);
  }, []);
  const close = useCallback(() => {
    if (!paying.current) setOffer(null);
  }, []);

  /**
   * Each kind of purchase: its procedure, and what its success means (whose content the fan may
   * now see, the spec's toast, where to go). A new kind (a tip, an unlock) is one more entry; the
   * key, the confirmation, the errors and the refetches below are the same for every kind.
   */
  const charges: { [K in PurchaseItem['kind']]: (item: Extract<PurchaseItem, { kind: K }>, request: ChargeRequest) => Promise<Outcome> } = {
    premium: async (item, request) => {
      const result = await upgrade.mutateAsync({ tierId: item.tierId, ...request });
      if (result.kind === 'redirect') return { redirect: result.url };
      return { entitlement: { kind: 'premium' }, toast: BILLING_TEXTS.premiumSubscribed, goTo: result.username };
    },
    creator: async (item, request) => {
      const result = await subscribe.mutateAsync({ tierId: item.tierId, bundlePeriods: item.bundlePeriods ?? null, ...request });
      if (result.kind === 'redirect') return { redirect: result.url };
      if (result.kind === 'tier-change-scheduled') {
        return { entitlement: { kind: 'creator', creatorId: item.creatorId }, toast: BILLING_TEXTS.tierChangeScheduled(result.tierName, formatCalendarDate(result.effectiveAt)), goTo: null };
      }
      return { entitlement: { kind: 'creator', creatorId: item.creatorId }, toast: BILLING_TEXTS.subscribed, goTo: result.creatorUsername };
    },
    message: async (item, request) => {
      const result = await unlockMessage.mutateAsync({ messageId: item.messageId, ...request });
      if (result.kind === 'redirect') return { redirect: result.url };
      if (result.kind === 'processing') return { entitlement: { kind: 'message', messageId: item.messageId }, toast: CARD_TEXTS.processing, goTo: null };
      return { entitlement: { kind: 'message', messageId: item.messageId }, toast: PAID_MESSAGE_TEXTS.unlocked, goTo: null };
    },
    trial: async (item, request) => {
      const result = await claimTrial.mutateAsync({ code: item.code, ...request });
      void utils.trials.view.invalidate();
      return { entitlement: { kind: 'creator', creatorId: item.creatorId }, toast: item.toast, goTo: result.creatorUsername };
    },
    post: async (item, request) => {
      const result = await unlock.mutateAsync({ postId: item.postId, ...request });
      if (result.kind === 'redirect') return { redirect: result.url };
      if (result.kind === 'processing') return { entitlement: { kind: 'post', postId: item.postId, creatorId: item.creatorId }, toast: CARD_TEXTS.processing, goTo: null };
      return { entitlement: { kind: 'post', postId: item.postId, creatorId: item.creatorId }, toast: UNLOCKED_TOAST, goTo: null };
    },
  };

  const charge = async (current: PurchaseOffer, idempotencyKey: string) => {
    const { item, confirmedAmount } = current;
    const outcome = await (charges[item.kind] as (item: PurchaseItem, request: ChargeRequest) => Promise<Outcome>)(item, { idempotencyKey, confirmedAmount });
    attempts.settle(scopeOf(item));
    if ('redirect' in outcome) return window.location.assign(outcome.redirect);
    // not awaited: the pages that show this creator refetch when they are next shown
    void refreshEntitlements(queryClient, utils, outcome.entitlement);
    setOffer(null);
    notify.success({ title: outcome.toast });
    if (outcome.goTo) await navigate({ to: '/$username', params: { username: outcome.goTo } });
  };

  const pay = async () => {
    const current = offer;
    if (!current || paying.current) return;
    paying.current = true;
    setPending(true);
    try {
      await charge(current, attempts.keyFor(scopeOf(current.item)));
    } catch (error) {
      // a refusal ends the attempt (and the confirmation: what it said may no longer hold); a
      // dropped connection keeps both, so pressing Pay again sends the same key and cannot charge twice
      if (isServerError(error)) {
        attempts.settle(scopeOf(current.item));
        setOffer(null);
      }
      const code = errorCode(error);
      const description =
        code === 'UNAUTHORIZED'
          ? BILLING_TEXTS.signInToSubscribe
          : code === 'CONFLICT' || code === 'FORBIDDEN' || code === 'NOT_FOUND' || code === 'BAD_REQUEST'
            ? (error as Error).message
            : BILLING_TEXTS.subscribeFailed;
      notify.error({ title: 'Error', description });
      // already subscribed, or the price changed: show what holds now
      if (code === 'CONFLICT' || code === 'NOT_FOUND') {
        void utils.subscriptions.subscribePage.invalidate();
        void utils.subscriptions.premiumTier.invalidate();
        void utils.subscriptions.mine.invalidate();
        if (current.item.kind === 'trial') void utils.trials.view.invalidate();
      }
    } finally {
      paying.current = false;
      setPending(false);
    }
  };

  return { offer, pending, confirm, pay, close };
}
