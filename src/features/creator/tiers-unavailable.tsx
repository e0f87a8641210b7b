import { Layers } from 'lucide-react';
import { CREATE_TEXTS } from '../../../common/texts';

/** The Subscription Tiers tab until the tier manager exists: says so, shows no made-up tiers. */
export function TiersUnavailable() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-card border border-dashed border-border px-6 py-14 text-center">
      <Layers aria-hidden="true" className="size-7 text-subtle" />
      <p className="font-medium text-foreground">{CREATE_TEXTS.tiersUnavailable}</p>
      <p className="text-sm text-muted">{CREATE_TEXTS.tiersUnavailableHint}</p>
    </div>
  );
}
