import { z } from 'zod';
import { BUNDLE_TEXTS as T } from './bundle-texts';
import { tierId } from './ids';

/** The lengths a bundle may have, in the tier's periods. */
export const BUNDLE_PERIODS = [3, 6, 12] as const;
export type BundlePeriods = (typeof BUNDLE_PERIODS)[number];
export const BUNDLE_MIN_PERCENT = 1;
export const BUNDLE_MAX_PERCENT = 75;

export const BundlePeriodsInput = z.literal(BUNDLE_PERIODS, { error: T.periodsInvalid });

/** A bundle's discount: a whole percent from 1 to 75; null (or empty in the form) removes that length. */
export const BundlePercent = z.coerce
  .number({ error: T.percentInvalid })
  .int(T.percentInvalid)
  .min(BUNDLE_MIN_PERCENT, T.percentInvalid)
  .max(BUNDLE_MAX_PERCENT, T.percentInvalid);

/** The tier's bundles as a whole: one entry per length offered (the others are removed). */
export const SetBundlesInput = z.object({
  tierId,
  bundles: z
    .array(z.object({ periods: BundlePeriodsInput, percent: BundlePercent }))
    .max(BUNDLE_PERIODS.length)
    .refine((list) => new Set(list.map((b) => b.periods)).size === list.length, T.periodsInvalid),
});
export type SetBundlesInput = z.output<typeof SetBundlesInput>;

/** A bundle as a fan sees it: what it costs in all ('108.00') and what it saves against single periods ('12.00'). */
export interface BundleOfferDto {
  periods: BundlePeriods;
  percent: number;
  total: string;
  saving: string;
}

/** A tier's bundle as its creator's manager shows it: what fans see, and which tier. */
export interface TierBundleDto extends BundleOfferDto {
  tierId: string;
}

/** A length's field in the tier manager: empty (not offered) or a bundle discount. */
const OptionalPercent = z.preprocess((v) => (v === '' || v === null || v === undefined ? null : v), BundlePercent.nullable());

/** The tier manager's bundle form: one field per length; `toBundles` makes the procedure's list. */
export const BundleForm = z.object({ p3: OptionalPercent, p6: OptionalPercent, p12: OptionalPercent });
export type BundleFormValues = z.input<typeof BundleForm>;

export function toBundles(values: z.output<typeof BundleForm>): SetBundlesInput['bundles'] {
  return BUNDLE_PERIODS.flatMap((periods) => {
    const percent = values[`p${periods}`];
    return percent === null ? [] : [{ periods, percent }];
  });
}
