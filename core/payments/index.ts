import Stripe from 'stripe';
import type { Config } from '../config';
import { builtinProvider } from './builtin';
import type { PaymentProvider } from './provider';
import { stripeProvider } from './stripe';

/**
 * The provider the settings choose: Stripe with both STRIPE_* secrets, else the built-in one.
 * Called once per process, by createDeps (core/create-deps.ts); everything else reads `deps.payments`.
 */
export function createPaymentProvider(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_URL'>): PaymentProvider {
  return config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
    ? stripeProvider(config.STRIPE_SECRET_KEY, config.STRIPE_WEBHOOK_SECRET, new Stripe(config.STRIPE_SECRET_KEY, stripeAddress(config.STRIPE_API_URL)))
    : builtinProvider;
}

/** STRIPE_API_URL as the client's host, port and protocol (unset: Stripe's own API). */
function stripeAddress(apiUrl: string | undefined): Stripe.StripeConfig | undefined {
  if (!apiUrl) return undefined;
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

/**
 * The provider that took a payment or runs a subscription, by the name the ledger recorded: the
 * built-in one always, Stripe while it is configured. Anything else throws, so a job that must
 * reach that provider fails visibly (and is retried) instead of pretending it did.
 */
export function providerNamed(configured: PaymentProvider, name: string): PaymentProvider {
  if (name === builtinProvider.name) return builtinProvider;
  if (configured.name === name) return configured;
  throw new Error(`The payment provider "${name}" is not configured: set its settings to reach it`);
}
