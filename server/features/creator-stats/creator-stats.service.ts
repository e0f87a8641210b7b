import type { EarningsDto, SubscribersPageDto } from '../../../common/billing-dtos';
import type { AppDeps } from '../../../core/deps';
import { findCreatorTiers } from '../../shared/creator-tiers.queries';
import { fromCents } from '../../../common/money';
import { netEarningsByPeriod, periodStarts } from '../../../domain/earnings/figures';
import { findActiveSubscribers, SUBSCRIBERS_PAGE_SIZE } from './creator-stats.queries';

/** `<instant>|<id>`, checked by SubscribersInput (common/cursor-schema.ts) before it comes here. */
function parseCursor(cursor: string | null | undefined): { at: string; id: string } | null {
  if (!cursor) return null;
  const [at, id] = cursor.split('|') as [string, string];
  return { at, id };
}

/** Who subscribes to the caller (a creator): fan, tier, since, renews; 20 a page. */
export async function mySubscribers(deps: Pick<AppDeps, 'db'>, creatorId: string, cursor: string | null | undefined): Promise<SubscribersPageDto> {
  const rows = await findActiveSubscribers(deps.db, creatorId, parseCursor(cursor));
  const page = rows.slice(0, SUBSCRIBERS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      subscriptionId: r.id,
      fan: { id: r.fan_id, username: r.username, displayName: r.display_name, avatarUrl: r.avatar_url },
      tierName: r.tier_name,
      since: r.created_at,
      renewsAt: r.current_period_end,
      cancelAtPeriodEnd: r.cancel_at_period_end,
    })),
    nextCursor: rows.length > SUBSCRIBERS_PAGE_SIZE && last ? `${last.cursor_at}|${last.id}` : null,
  };
}

/**
 * This month, last month and 12 weekly totals of the creator's net earnings, by date of payment,
 * read from the ledger with the Earnings screen's one definition (domain/earnings/figures.ts), and
 * per-tier active counts.
 */
export async function myEarnings(deps: Pick<AppDeps, 'db'>, creatorId: string, now = new Date()): Promise<EarningsDto> {
  const weeks = periodStarts(now, 'week', 12);
  const months = periodStarts(now, 'month', 2);
  const [weekly, monthly, tiers] = await Promise.all([
    netEarningsByPeriod(deps.db, creatorId, weeks),
    netEarningsByPeriod(deps.db, creatorId, months),
    findCreatorTiers(deps.db, creatorId),
  ]);
  return {
    currency: 'ZAR',
    thisMonth: fromCents(monthly[1]!),
    lastMonth: fromCents(monthly[0]!),
    weekly: weeks.map((weekStart, i) => ({ weekStart, total: fromCents(weekly[i]!) })),
    tiers: tiers.map((t) => ({ tierId: t.id, name: t.name, activeSubscribers: Number(t.active_subscribers ?? 0), archived: t.archived_at !== null })),
  };
}
