import { TRPCError } from '@trpc/server';
import type { TierDto } from '../../../common/billing-dtos';
import { discountedPrice } from '../../../common/discounted-price';
import type { TierInput, UpdateTierInput } from '../../../common/billing-schemas';
import { fromCents } from '../../../common/money';
import { BILLING_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import { fieldError } from '../../trpc/errors';
import { findCreatorTiers, type TierRow } from '../../shared/creator-tiers.queries';
import { requireMaySell } from '../../shared/selling';
import { deleteOrArchiveTier, insertTier, updateTier } from './tiers.queries';

function toDto(row: TierRow): TierDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: fromCents(row.price_cents),
    paymentInterval: row.payment_interval,
    discountPercentage: row.discount_percentage,
    discountedPrice: fromCents(discountedPrice(row.price_cents, row.discount_percentage)),
    archivedAt: row.archived_at,
    activeSubscribers: Number(row.active_subscribers ?? 0),
  };
}

/** The tier manager's list (spec: by price ascending); archived tiers last. */
export async function listMyTiers(deps: Pick<AppDeps, 'db'>, creatorId: string): Promise<TierDto[]> {
  return (await findCreatorTiers(deps.db, creatorId)).map(toDto);
}

async function tierDto(deps: Pick<AppDeps, 'db'>, creatorId: string, id: string): Promise<TierDto> {
  const [row] = await findCreatorTiers(deps.db, creatorId, id);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: BILLING_TEXTS.tierNotFound });
  return toDto(row);
}

/** A creator's live tier names are unique, whatever the case (a unique index; its refusal read as the name's error). */
function isNameTaken(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'subscription_tiers_creator_name_key';
}

/** A new tier sells subscriptions: the creator's identity must be verified first (issue 47 item 1). */
export async function createTier(deps: Pick<AppDeps, 'db' | 'payments'>, creatorId: string, input: TierInput): Promise<TierDto> {
  await requireMaySell(deps, creatorId, 'tier');
  try {
    const id = await insertTier(deps.db, creatorId, input);
    return await tierDto(deps, creatorId, id);
  } catch (error) {
    if (isNameTaken(error)) throw fieldError('name', BILLING_TEXTS.tierNameTaken, 'CONFLICT');
    throw error;
  }
}

export async function editTier(deps: Pick<AppDeps, 'db'>, creatorId: string, input: UpdateTierInput): Promise<TierDto> {
  const { id, ...fields } = input;
  try {
    if (!(await updateTier(deps.db, creatorId, id, fields))) throw new TRPCError({ code: 'NOT_FOUND', message: BILLING_TEXTS.tierNotFound });
  } catch (error) {
    if (isNameTaken(error)) throw fieldError('name', BILLING_TEXTS.tierNameTaken, 'CONFLICT');
    throw error;
  }
  return tierDto(deps, creatorId, id);
}

export async function removeTier(deps: Pick<AppDeps, 'db'>, creatorId: string, id: string): Promise<{ outcome: 'deleted' | 'archived'; message: string }> {
  const outcome = await deleteOrArchiveTier(deps.db, creatorId, id);
  if (!outcome) throw new TRPCError({ code: 'NOT_FOUND', message: BILLING_TEXTS.tierNotFound });
  return { outcome, message: outcome === 'archived' ? BILLING_TEXTS.tierArchived : BILLING_TEXTS.tierDeleted };
}
