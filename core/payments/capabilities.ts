import type { PaymentProviderName } from '../../common/billing-dtos';
import type { ProviderCapabilities } from './provider';

/**
 * Each provider's capabilities, by the name a ledger row records. Billing code asks a provider
 * what it does (`provider.renewsItself`), never which one it is; a row's provider is looked up
 * here because its provider may no longer be configured (rows of Stripe outlive its settings).
 * The provider names are compared only in core/payments (tests/unit/provider-names.unit.test.ts).
 */
export const PROVIDER_CAPABILITIES: Readonly<Record<PaymentProviderName, ProviderCapabilities>> = {
  builtin: { renewsItself: false, isTest: true },
  stripe: { renewsItself: true, isTest: false },
};

/** The capabilities of the provider a row names; null for a name no provider has. */
export function capabilitiesOf(name: string): ProviderCapabilities | null {
  return Object.hasOwn(PROVIDER_CAPABILITIES, name) ? PROVIDER_CAPABILITIES[name as PaymentProviderName] : null;
}

/** The providers that renew their subscriptions themselves: a query's list for rows' `provider` column. */
export const SELF_RENEWING_PROVIDERS: readonly PaymentProviderName[] = (Object.keys(PROVIDER_CAPABILITIES) as PaymentProviderName[]).filter(
  (name) => PROVIDER_CAPABILITIES[name].renewsItself,
);
