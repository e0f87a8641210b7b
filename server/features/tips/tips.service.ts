import { fromCents, toCents } from '../../../common/money';
import type { SendTipInput } from '../../../common/tip-schemas';
import { TIP_TEXTS } from '../../../common/tip-texts';
import type { AppDeps } from '../../../core/deps';
import type { Realtime } from '../../../core/realtime/realtime';
import { applyBillingEffects } from '../../../domain/billing/effects';
import { earningsPolicy } from '../../../domain/earnings/policy';
import { sendTip as sendTipCharge, tipReceivedEvent } from '../../../domain/billing/tip';
import { paymentElsewhere, type PaymentElsewhereDto } from '../../../domain/billing/payment-elsewhere';
import { paymentFailed } from '../../trpc/errors';

type Deps = Pick<AppDeps, 'db' | 'config' | 'queues' | 'log' | 'payments' | 'clock'> & { realtime: Realtime };

export type TipResultDto = PaidTipDto | PaymentElsewhereDto;

export interface PaidTipDto {
  kind: 'paid';
  tipId: string;
  amount: string;
  creatorName: string;
  /** the built-in provider: no card was charged */
  testPayment: boolean;
}

/**
 * Charges the tip (domain/billing/tip.ts) and, once committed, tells the creator's open tabs
 * (`tip:received` to their user room: a toast, and a line in an open chat with this fan). A
 * repeated request answers the first tip and tells nobody again.
 */
export async function sendTip(deps: Deps, userId: string, input: SendTipInput): Promise<TipResultDto> {
  try {
    const outcome = await sendTipCharge(
      { db: deps.db, provider: deps.payments, clock: deps.clock, appUrl: deps.config.appUrl, earnings: earningsPolicy(deps.config) },
      {
        userId, creatorUsername: input.creatorUsername, message: input.message, idempotencyKey: input.idempotencyKey,
        amountCents: toCents(input.amount), confirmedCents: toCents(input.confirmedAmount),
      },
    );
    if (outcome.kind !== 'paid') return paymentElsewhere(outcome);
    const { result: tip, effects, repeated } = outcome;
    await applyBillingEffects(deps, effects);
    if (!repeated) deps.realtime.toUser(tip.creatorId, 'tip:received', tipReceivedEvent(tip));
    return { kind: 'paid', tipId: tip.paymentId, amount: fromCents(tip.amountCents), creatorName: tip.creatorName, testPayment: deps.payments.isTest };
  } catch (error) {
    paymentFailed(deps.log, error, { message: TIP_TEXTS.failed, logged: 'tip failed' });
  }
}
