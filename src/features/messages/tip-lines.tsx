import { useState } from 'react';
import { formatRand } from '../../../common/format';
import type { TipReceivedEvent } from '../../../common/socket-events';
import { TIP_TEXTS } from '../../../common/tip-texts';
import { useRealtimeEvent } from '../../lib/realtime/listeners';

/** Tips this fan sends while the chat is open: a line each, above the composer (the creator's toast says it too). */
export function TipLines({ partnerId, partnerName }: { partnerId: string | null; partnerName: string }) {
  const [tips, setTips] = useState<TipReceivedEvent[]>([]);
  useRealtimeEvent('tip:received', (tip) => {
    if (tip.fanId === partnerId) setTips((shown) => [...shown, tip]);
  });
  if (tips.length === 0) return null;
  return (
    <ul aria-live="polite" className="flex flex-col gap-1 border-t border-border px-4 py-2">
      {tips.map((tip) => (
        <li key={tip.tipId} data-testid="tip-line" className="self-center rounded-full bg-violet-500/15 px-3 py-1 text-center text-xs text-violet-100 ring-1 ring-violet-400/30">
          {TIP_TEXTS.received(partnerName, formatRand(tip.amount))}
          {tip.message ? <span className="text-violet-200/80"> — “{tip.message}”</span> : null}
        </li>
      ))}
    </ul>
  );
}
