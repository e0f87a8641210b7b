import { useId } from 'react';
import { formatRand } from '../../../common/format';
import { MESSAGE_PRICE_MAX, MESSAGE_PRICE_MIN } from '../../../common/paid-message-schemas';
import { PAID_MESSAGE_TEXTS as T } from '../../../common/paid-message-texts';
import { FIELD_BASE } from './mass-field-classes';

type Props = { priceText: string; onPriceText: (text: string) => void; priceInvalid: boolean; hasFile: boolean };

/** The mass message's price: only a file can be sold, so it waits for one. */
export function MassPriceField({ priceText, onPriceText, priceInvalid, hasFile }: Props) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {T.priceLabel}
      </label>
      <div className="flex items-center gap-2">
        <span aria-hidden="true">R</span>
        <input
          id={id}
          inputMode="decimal"
          disabled={!hasFile}
          value={priceText}
          onChange={(e) => onPriceText(e.target.value)}
          placeholder="0.00"
          aria-invalid={priceInvalid || undefined}
          className={`${FIELD_BASE} w-32 disabled:opacity-50`}
        />
      </div>
      <p className="text-xs text-muted">
        {priceInvalid ? T.priceRange(formatRand(MESSAGE_PRICE_MIN), formatRand(MESSAGE_PRICE_MAX)) : hasFile ? T.priceHint : T.priceNeedsFile}
      </p>
    </div>
  );
}
