import { Crown } from 'lucide-react';

/** The premium mark beside a partner's name (chat list, thread header). */
export function PremiumMark() {
  return (
    <span role="img" aria-label="Premium" title="Premium" className="inline-flex text-amber-300">
      <Crown aria-hidden="true" className="size-3.5" />
    </span>
  );
}
