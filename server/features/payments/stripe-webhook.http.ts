import express, { Router } from 'express';
import type { AppDeps } from '../../../core/deps';
import { WebhookSignatureError } from '../../../core/payments/provider';
import { applyBillingEffects } from '../../../domain/billing/effects';
import { applyProviderEvent } from '../../../domain/billing/provider-events';
import { earningsPolicy } from '../../../domain/earnings/policy';
import { announcePurchases } from '../../../domain/billing/announce-purchases';

/**
 * POST /webhooks/stripe (docs/payments.md): the raw body (Stripe signs the exact bytes), the
 * Stripe-Signature header checked with STRIPE_WEBHOOK_SECRET (400 when it does not match, is
 * missing, or its timestamp is more than five minutes from this server's clock, old or ahead), then the event applied once (billing_events) and answered 200, also when
 * it was applied before, so Stripe stops redelivering. What the event leaves to do (live events,
 * receipts, a duplicate checkout's cancel and refund job) runs after its commit; the jobs' outbox
 * rows committed with the event, so a Redis that refuses them now only delays them. Mounted before the Origin check: Stripe
 * sends no Origin, and the signature is what authenticates it. 404 without Stripe settings.
 */
export function stripeWebhookRoutes(deps: AppDeps): Router {
  const router = Router();
  router.post('/webhooks/stripe', express.raw({ type: () => true, limit: '1mb' }), async (req, res, next) => {
    const provider = deps.payments;
    // only a provider whose webhooks record its payments has this route (the built-in one calls nobody)
    if (provider.flow !== 'checkout') {
      res.status(404).json({ error: { message: 'Not found' } });
      return;
    }
    let event;
    try {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      event = provider.verifyWebhook(body, req.header('stripe-signature'));
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        deps.log.warn({ reason: error.message }, 'stripe webhook refused: bad signature');
        res.status(400).json({ error: { message: 'Invalid signature' } });
        return;
      }
      next(error);
      return;
    }
    try {
      const { outcome, effects } = await applyProviderEvent({ db: deps.db, provider, clock: deps.clock, earnings: earningsPolicy(deps.config) }, event);
      await applyBillingEffects(deps, effects);
      await announcePurchases(deps, effects.purchases);
      await detachReplacedCards(deps, effects.detachCards);
      deps.log.info({ eventId: event.id, kind: event.kind, outcome }, 'stripe webhook');
      res.json({ received: true, outcome });
    } catch (error) {
      // 500: Stripe retries later. Nothing was recorded (one transaction)
      next(error);
    }
  });
  return router;
}

/** A card a newer one replaced: nothing here charges it again, so a failure to detach it is only logged. */
async function detachReplacedCards(deps: AppDeps, paymentMethodIds: string[] = []): Promise<void> {
  for (const id of paymentMethodIds) {
    await deps.payments.removeCard(id).catch((error: unknown) => deps.log.warn({ err: error, paymentMethodId: id }, 'could not detach a replaced card'));
  }
}
