import { TRPCError } from '@trpc/server';
import type { AdminPaymentDto, PaymentDto } from '../../../common/billing-dtos';
import { fromCents, toCents } from '../../../common/money';
import { receiptNumberLabel, type ReceiptDto } from '../../../common/receipts';
import { WALLET_TEXTS } from '../../../common/wallet-texts';
import type { AdminPaymentSearchInput, AdminRefundInput } from '../../../common/refund-schemas';
import { readCents } from '../../../core/db/cents';
import type { AppDeps } from '../../../core/deps';
import { dispatchOutbox } from '../../../core/outbox/outbox';
import { providerNamed } from '../../../core/payments';
import { requestRefund } from '../../../domain/billing/admin-refund';
import { findReceipt } from '../../../domain/billing/receipts';
import { paymentLabel, reversalState } from '../../../domain/billing/reversal-state';
import { limitOrThrow } from '../../auth/rate-limit';
import { findPaymentsOf, searchCharges } from './payments.queries';

/** An admin's refunds per minute: enough for a queue of disputes, not for a runaway script. */
const ADMIN_REFUND_LIMIT = { points: 30, windowSeconds: 60 };

/** The Payment History box: the ledger is its only source (charges and their reversal rows). */
export async function paymentHistory(deps: Pick<AppDeps, 'db'>, userId: string): Promise<PaymentDto[]> {
  const rows = await findPaymentsOf(deps.db, userId);
  return rows.map((r) => ({
    id: r.id,
    description: r.description,
    amount: fromCents(readCents(r.amount_cents)),
    currency: r.currency,
    status: r.status,
    kind: r.kind,
    label: paymentLabel({ ...r, amountCents: readCents(r.amount_cents) }, reversalState(r)),
    provider: r.provider,
    createdAt: r.created_at,
    receiptNumber: r.receipt_number ? receiptNumberLabel(r.receipt_number) : null,
  }));
}

/** A purchase's receipt, to its payer only: anyone else's payment id is not found, like an unknown one. */
export async function myReceipt(deps: Pick<AppDeps, 'db'>, userId: string, paymentId: string): Promise<ReceiptDto> {
  const receipt = await findReceipt(deps.db, userId, paymentId);
  if (!receipt) throw new TRPCError({ code: 'NOT_FOUND', message: WALLET_TEXTS.receiptNotFound });
  return receipt;
}

/** The admin's payments screen: charges by fan, creator, id or provider reference. */
export async function searchPayments(deps: Pick<AppDeps, 'db'>, input: AdminPaymentSearchInput): Promise<AdminPaymentDto[]> {
  const rows = await searchCharges(deps.db, input.query);
  return rows.map((r) => {
    const amountCents = readCents(r.amount_cents);
    const reversals = reversalState(r);
    const pendingCents = readCents(r.pending);
    const label = paymentLabel({ ...r, amountCents }, reversals);
    const left = amountCents - reversals.refundedCents - pendingCents;
    const refundable = r.status === 'succeeded' && label !== 'disputed' ? Math.max(0, left) : 0;
    return {
      id: r.id,
      description: r.description,
      amount: fromCents(amountCents),
      refunded: fromCents(reversals.refundedCents),
      pendingRefund: fromCents(pendingCents),
      refundable: fromCents(refundable),
      label,
      provider: r.provider,
      providerRef: r.provider_ref,
      createdAt: r.created_at,
      fan: r.fan_username && r.fan_email ? { username: r.fan_username, email: r.fan_email } : null,
      creator: r.creator_username ? { username: r.creator_username } : null,
    };
  });
}

/**
 * An admin's refund: checked and written with its outbox row in one transaction, then the job
 * queued at once (the outbox relay queues it later if Redis is away). The provider is asked by the
 * job; the answer says the refund is on its way.
 */
export async function refundPayment(deps: AppDeps, adminId: string, input: AdminRefundInput): Promise<{ paymentId: string; amount: string }> {
  await limitOrThrow(deps.redis, deps.config.REDIS_PREFIX, 'admin-refund', [`user:${adminId}`], ADMIN_REFUND_LIMIT);
  const reachable = (name: string) => {
    try {
      return Boolean(providerNamed(deps.payments, name));
    } catch {
      return false;
    }
  };
  const request = { adminId, paymentId: input.paymentId, amountCents: toCents(input.amount), idempotencyKey: input.idempotencyKey };
  const requested = await requestRefund({ db: deps.db, reachable, clock: deps.clock }, request);
  await dispatchOutbox(deps, [requested.job]);
  return { paymentId: requested.paymentId, amount: fromCents(requested.amountCents) };
}
