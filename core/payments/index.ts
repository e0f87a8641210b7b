import type { Config } from '../config';
import { builtinProvider } from './builtin';
import type { PaymentProvider } from './provider';
import { stripeProvider } from './stripe';

const cache = new WeakMap<object, PaymentProvider>();

/** The provider the settings choose: Stripe with both STRIPE_* settings, else the built-in one. */
export function paymentProviderFor(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET'>): PaymentProvider {
  let provider = cache.get(config);
  if (!provider) {
    provider =
      config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET ? stripeProvider(config.STRIPE_SECRET_KEY, config.STRIPE_WEBHOOK_SECRET) : builtinProvider;
    cache.set(config, provider);
  }
  return provider;
}
