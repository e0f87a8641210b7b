import type { UseFormRegisterReturn } from 'react-hook-form';
import { POST_EDIT_TEXTS as T } from '../../common/post-edit-texts';
import { POST_UNLOCK_TEXTS } from '../../common/post-unlock-texts';
import { Checkbox } from './ui/checkbox';
import { FormField } from './ui/form-field';
import { Input } from './ui/input';
import { Select } from './ui/select';
import { useMaySell, VerifyToSellNotice } from './verify-to-sell';

type UnlockFieldName = 'payPerView' | 'unlockPrice' | 'unlockMode';

interface UnlockPriceFieldsProps {
  /** the form's register for the flat unlock fields (common/post-unlock.ts UnlockFormFields) */
  field: (name: UnlockFieldName) => UseFormRegisterReturn<string>;
  priceError: string | undefined;
  /** the checkbox's current value: the price and who pays show only when it is on */
  payPerView: boolean;
  disabled?: boolean;
}

/**
 * A post's unlock price (issue 27 item 2), where a post is made (the upload form) and where it is
 * edited (Edit post): pay-per-view on or off, the price in rand and who pays, checked by the same
 * schema the server parses (refineUnlockFields) and worded alike in both places.
 */
export function UnlockPriceFields({ field, priceError, payPerView, disabled }: UnlockPriceFieldsProps) {
  const maySell = useMaySell();
  return (
    <>
      <label className="flex items-center gap-3 text-sm text-foreground">
        <Checkbox {...field('payPerView')} disabled={disabled} />
        {T.payPerViewLabel}
      </label>
      {/* a price is a sale: the server refuses a new one before the identity is verified */}
      {payPerView && maySell === false ? <VerifyToSellNotice sale="postPrice" /> : null}
      {payPerView ? (
        <div className="flex flex-col gap-4">
          <FormField label={POST_UNLOCK_TEXTS.priceLabel} error={priceError}>
            {(props) => <Input {...props} {...field('unlockPrice')} inputMode="decimal" autoComplete="off" disabled={disabled} />}
          </FormField>
          <FormField label={T.modeLabel}>
            {(props) => (
              <Select {...props} {...field('unlockMode')} disabled={disabled}>
                <option value="everyone">{POST_UNLOCK_TEXTS.modeEveryone}</option>
                <option value="non_subscribers">{POST_UNLOCK_TEXTS.modeNonSubscribers}</option>
              </Select>
            )}
          </FormField>
        </div>
      ) : null}
    </>
  );
}
