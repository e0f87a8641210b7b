import { z } from 'zod';
import { ConfirmedAmount, IdempotencyKey } from './billing-schemas';
import { joinedCursor } from './cursor-schema';
import { entityId, tierId } from './ids';
import { BILLING_TEXTS } from './texts';
import { OFFER_TEXTS, TRIAL_TEXTS as T } from './trial-texts';

export const TRIAL_MAX_DAYS = 90;
export const TRIAL_MAX_CLAIMS = 100_000;
/** a link's expiry is at most this far ahead */
export const TRIAL_MAX_EXPIRY_DAYS = 366;

export const trialLinkId = entityId(T.notFound);

/** A link's code: what the URL carries (/trial/{code}); unguessable, made by the server. */
export const TrialCode = z.string().trim().regex(/^[A-Za-z0-9_-]{6,64}$/, T.notFound);

/** the link's tier: none chosen asks for one (a field error), an unknown one is not found */
const trialTierId = entityId(BILLING_TEXTS.tierNotFound, { required: T.tierRequired });

export const CreateTrialLinkInput = z.object({
  tierId: trialTierId,
  days: z.coerce.number({ error: T.daysInvalid }).int(T.daysInvalid).min(1, T.daysInvalid).max(TRIAL_MAX_DAYS, T.daysInvalid),
  maxClaims: z.coerce.number({ error: T.maxClaimsInvalid }).int(T.maxClaimsInvalid).min(1, T.maxClaimsInvalid).max(TRIAL_MAX_CLAIMS, T.maxClaimsInvalid),
  /** the last moment it can be claimed (ISO date-time) */
  expiresAt: z.coerce.date({ error: T.expiresInvalid }),
});
export type CreateTrialLinkInput = z.output<typeof CreateTrialLinkInput>;

export const TrialLinkIdInput = z.object({ id: trialLinkId });
export type TrialLinkIdInput = z.output<typeof TrialLinkIdInput>;

export const TrialCodeInput = z.object({ code: TrialCode });
export type TrialCodeInput = z.output<typeof TrialCodeInput>;

/**
 * Claiming: the code, one key per confirmation (a repeat answers the first claim), and the price
 * the fan agreed to pay after the trial (`confirmedAmount`: refused when the tier's price is
 * different now).
 */
export const ClaimTrialInput = z.object({ code: TrialCode, idempotencyKey: IdempotencyKey, confirmedAmount: ConfirmedAmount });
export type ClaimTrialInput = z.output<typeof ClaimTrialInput>;

/** keyset: `<created_at>|<id>` of the last link of the page before */
export const TrialListInput = z.object({ cursor: joinedCursor('|').nullish() });
export type TrialListInput = z.output<typeof TrialListInput>;

/** A creator's link as their list shows it. */
export interface TrialLinkDto {
  id: string;
  code: string;
  tierId: string;
  tierName: string;
  days: number;
  maxClaims: number;
  claims: number;
  expiresAt: Date;
  disabledAt: Date | null;
  createdAt: Date;
}

/** What a fan opening /trial/{code} sees. */
export interface TrialOfferDto {
  code: string;
  creator: { id: string; username: string; displayName: string | null; avatarUrl: string | null };
  tier: { id: string; name: string; description: string | null; paymentInterval: 'weekly' | 'monthly' | 'annually'; discountedPrice: string };
  days: number;
  expiresAt: Date;
  /** whether this viewer can claim it now, or why not */
  state: 'available' | 'expired' | 'disabled' | 'full' | 'claimed' | 'used' | 'subscribed' | 'own';
  claimsLeft: number;
  provider: 'builtin' | 'stripe';
}

export interface TrialLinkPageDto {
  links: TrialLinkDto[];
  nextCursor: string | null;
}

export interface ClaimTrialResultDto {
  subscriptionId: string;
  creatorUsername: string;
  trialEndsAt: Date;
}

export const offerId = entityId(OFFER_TEXTS.notFound);
export const OFFER_AUDIENCES = ['new', 'expired'] as const;

export const CreateOfferInput = z.object({
  /** null: every tier; '' (the form's "All tiers") is every tier too, turned into null before the id is checked */
  tierId: z
    .string()
    .nullish()
    .transform((v) => v?.trim() || null)
    .pipe(tierId.nullable()),
  audience: z.enum(OFFER_AUDIENCES),
  percent: z.coerce.number({ error: OFFER_TEXTS.percentInvalid }).int(OFFER_TEXTS.percentInvalid).min(1, OFFER_TEXTS.percentInvalid).max(90, OFFER_TEXTS.percentInvalid),
  startsAt: z.coerce.date({ error: OFFER_TEXTS.datesInvalid }),
  endsAt: z.coerce.date({ error: OFFER_TEXTS.datesInvalid }),
});
export type CreateOfferInput = z.output<typeof CreateOfferInput>;

export const OfferIdInput = z.object({ id: offerId });
export type OfferIdInput = z.output<typeof OfferIdInput>;

export interface OfferDto {
  id: string;
  tierId: string | null;
  tierName: string | null;
  audience: 'new' | 'expired';
  percent: number;
  startsAt: Date;
  endsAt: Date;
  disabledAt: Date | null;
}
