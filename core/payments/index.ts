import Stripe from 'stripe';
import type { Config } from '../config';
import { builtinProvider } from './builtin';
import type { PaymentProvider } from './provider';
import { stripeProvider } from './stripe';

const cache = new WeakMap<object, PaymentProvider>();

/** The provider the settings choose: Stripe with both STRIPE_* secrets, else the built-in one. */
export function paymentProviderFor(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_URL'>): PaymentProvider {
  let provider = cache.get(config);
  if (!provider) {
    provider =
      config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
        ? stripeProvider(config.STRIPE_SECRET_KEY, config.STRIPE_WEBHOOK_SECRET, new Stripe(config.STRIPE_SECRET_KEY, stripeAddress(config.STRIPE_API_URL)))
        : builtinProvider;
    cache.set(config, provider);
  }
  return provider;
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
export function providerNamed(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_URL'>, name: string): PaymentProvider {
  if (name === builtinProvider.name) return builtinProvider;
  const configured = paymentProviderFor(config);
  if (configured.name === name) return configured;
  throw new Error(`The payment provider "${name}" is not configured: set its settings to reach it`);
}
