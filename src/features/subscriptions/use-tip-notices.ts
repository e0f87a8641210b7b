import { formatRand } from '../../../common/format';
import { TIP_TEXTS } from '../../../common/tip-texts';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { notify } from '../../lib/toast';

/** A creator's open tabs: a toast for each tip as it arrives (`tip:received`; an open chat with the fan also shows a line). */
export function useTipNotices() {
  useRealtimeEvent('tip:received', ({ fanUsername, fanDisplayName, amount, message }) => {
    notify.success({ title: TIP_TEXTS.received(fanDisplayName || `@${fanUsername}`, formatRand(amount)), description: message ?? undefined });
  });
}

/** The hook as a component, so the app shell can load it only for the signed in. */
export function TipNotices() {
  useTipNotices();
  return null;
}
