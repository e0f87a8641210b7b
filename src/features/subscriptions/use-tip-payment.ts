import { useRef, useState } from 'react';
import { CARD_TEXTS } from '../../../common/card-texts';
import { formatRand } from '../../../common/format';
import { TIP_TEXTS } from '../../../common/tip-texts';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';
import { useAttemptKeys } from './attempt-key';

type TipTarget = { username: string; name: string };

/**
 * The tip's confirmation and its one charge. One idempotency key per confirmed tip, kept until the
 * server answers: a double press or Pay again after a dropped connection charges once.
 */
export function useTipPayment(target: TipTarget, amount: string | null, message: string, onClose: () => void) {
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const paying = useRef(false);
  const attempts = useAttemptKeys();
  const send = trpc.tips.send.useMutation();
  const scope = `tip:${target.username}`;

  // while a charge is under way the dialogs stay open: closing them would hide its answer
  const close = () => {
    if (!paying.current) onClose();
  };
  const closeConfirmation = () => {
    if (!paying.current) setConfirming(false);
  };
  const pay = async () => {
    if (!amount || paying.current) return;
    paying.current = true;
    setPending(true);
    try {
      const result = await send.mutateAsync({
        creatorUsername: target.username, amount, confirmedAmount: amount, message: message.trim() || null, idempotencyKey: attempts.keyFor(scope),
      });
      attempts.settle(scope);
      if (result.kind === 'redirect') return window.location.assign(result.url);
      if (result.kind === 'processing') {
        notify.success({ title: CARD_TEXTS.processing });
        onClose();
        return;
      }
      notify.success({ title: TIP_TEXTS.sent(formatRand(result.amount), result.creatorName), description: result.testPayment ? 'Test payment: no card was charged.' : undefined });
      paying.current = false;
      onClose();
    } catch (error) {
      // a refusal ends the attempt; a dropped connection keeps the key, so Pay again cannot charge twice
      if (isServerError(error)) {
        attempts.settle(scope);
        setConfirming(false);
      }
      const code = errorCode(error);
      notify.error({ title: 'Error', description: code === 'INTERNAL_SERVER_ERROR' || !isServerError(error) ? TIP_TEXTS.failed : (error as Error).message });
    } finally {
      paying.current = false;
      setPending(false);
    }
  };

  return { confirming, setConfirming, pending, pay, close, closeConfirmation };
}
