import type { Clock } from '../../core/clock';
import type { DB } from '../../core/db/kysely';
import type { PaymentProvider } from '../../core/payments/provider';
import type { EarningsPolicy } from '../earnings/policy';

/** What a purchase needs (a subscription, a one-off, a trial), given by the service that runs it. */
export interface BillingDeps {
  db: DB;
  provider: PaymentProvider;
  clock: Clock;
  /** where Checkout sends the browser back to */
  appUrl: string;
  /** the fee and hold of the earnings ledger (the settings: `earningsPolicy(config)`; required, as by insertPayment) */
  earnings: EarningsPolicy;
}
