import type { PaymentInterval } from '../../../common/enums';
import { tierPriceView } from '../../lib/tier-price';

type Props = { id: string; price: unknown; paymentInterval: PaymentInterval | undefined; discountPercentage: unknown };

/** What fans will pay, worked out from the values as typed (nothing until the price is a valid amount). */
export function TierPricePreview({ id, price, paymentInterval, discountPercentage }: Props) {
  const priceOk = /^\d+(\.\d{1,2})?$/.test(String(price ?? '').trim()) && Number(price) > 0;
  const discount = typeof discountPercentage === 'number' && Number.isInteger(discountPercentage) ? discountPercentage : null;
  const preview = priceOk ? tierPriceView({ price: String(price), paymentInterval: paymentInterval ?? 'monthly', discountPercentage: discount }) : null;
  return (
    <div aria-live="polite" id={id} className="rounded-xl border border-dashed border-border px-4 py-3 text-sm text-muted">
      {preview ? (
        <>
          Fans see:{' '}
          {preview.was ? <s className="text-subtle">{preview.was}</s> : null} <strong className="text-foreground">{preview.now}</strong> {preview.per}{' '}
          {preview.off ? <span className="text-emerald-300">{preview.off}</span> : null}
        </>
      ) : (
        'Enter a price to see what fans will pay.'
      )}
    </div>
  );
}
