import { fromCents, toCents } from '../../../common/money';
import type { UnlockMessageInput } from '../../../common/paid-message-schemas';
import { PAID_MESSAGE_TEXTS } from '../../../common/paid-message-texts';
import type { AppDeps } from '../../../core/deps';
import { applyBillingEffects } from '../../../domain/billing/effects';
import { unlockMessage as chargeUnlock } from '../../../domain/billing/message-unlock';
import { earningsPolicy } from '../../../domain/earnings/policy';
import { paymentElsewhere, type PaymentElsewhereDto } from '../../../domain/billing/payment-elsewhere';
import { paymentFailed } from '../../trpc/errors';
import { emitMessageUpdated } from './messages.events';
import type { MessagesDeps } from './messages.service';

type Deps = MessagesDeps & Pick<AppDeps, 'payments' | 'clock'>;

export type MessageUnlockDto = PaidMessageUnlockDto | PaymentElsewhereDto;

export interface PaidMessageUnlockDto {
  kind: 'paid';
  messageId: string;
  paymentId: string;
  amount: string;
  testPayment: boolean;
}

/**
 * The recipient buys a pay-per-view message's file (domain/billing/message-unlock.ts). Once
 * committed, both participants hear `message:updated` with their own view, in every open tab (the
 * one that paid too): the fan's shows the file, the sender's says Bought. A repeat answers the
 * first purchase.
 */
export async function unlockMessage(deps: Deps, userId: string, input: UnlockMessageInput): Promise<MessageUnlockDto> {
  try {
    const outcome = await chargeUnlock(
      { db: deps.db, provider: deps.payments, clock: deps.clock, appUrl: deps.config.appUrl, earnings: earningsPolicy(deps.config) },
      { userId, messageId: input.messageId, idempotencyKey: input.idempotencyKey, confirmedCents: toCents(input.confirmedAmount) },
    );
    if (outcome.kind !== 'paid') return paymentElsewhere(outcome);
    const { result: unlock } = outcome;
    await applyBillingEffects(deps, outcome.effects);
    await emitMessageUpdated({ db: deps.db, realtime: deps.realtime }, unlock.messageId, [unlock.recipientId, unlock.senderId]);
    return { kind: 'paid', messageId: unlock.messageId, paymentId: unlock.paymentId, amount: fromCents(unlock.amountCents), testPayment: deps.payments.isTest };
  } catch (error) {
    paymentFailed(deps.log, error, { message: PAID_MESSAGE_TEXTS.failed, logged: 'message unlock failed' });
  }
}
