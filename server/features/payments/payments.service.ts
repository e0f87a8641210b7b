import type { PaymentDto } from '../../../common/billing-dtos';
import type { AppDeps } from '../../../core/deps';
import { findPaymentsOf } from './payments.queries';

/** The Payment History box: the ledger is its only source. */
export async function paymentHistory(deps: Pick<AppDeps, 'db'>, userId: string): Promise<PaymentDto[]> {
  const rows = await findPaymentsOf(deps.db, userId);
  return rows.map((r) => ({
    id: r.id,
    description: r.description,
    amount: r.amount,
    currency: r.currency,
    status: r.status,
    provider: r.provider,
    createdAt: r.created_at,
  }));
}
