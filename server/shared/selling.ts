import { TRPCError } from '@trpc/server';
import { SELLING_TEXTS, type SaleKind } from '../../common/selling';
import type { AppDeps } from '../../core/deps';
import { maySell } from '../../domain/people/verification';

/**
 * The server's half of "verified before selling" (issue 47 item 1): every procedure that puts
 * something up for sale asks here before it writes, so a client that skips the screens' notice is
 * refused with the same words (FORBIDDEN, 'Verify your identity before you ...').
 */
export async function requireMaySell(deps: Pick<AppDeps, 'db' | 'payments'>, userId: string, sale: SaleKind): Promise<void> {
  if (!(await maySell(deps.db, userId, deps.payments.name))) throw new TRPCError({ code: 'FORBIDDEN', message: SELLING_TEXTS.verifyFirst(sale) });
}

/**
 * Edit post sends the whole post back, its price included: only a price the post does not have
 * yet (a new one, or a changed amount) is a new sale, so a creator who lost the right to sell can
 * still fix a typo in a post priced before.
 */
export async function requireMaySellPostPrice(deps: Pick<AppDeps, 'db' | 'payments'>, userId: string, postId: string, priceCents: number | null): Promise<void> {
  if (priceCents === null) return;
  const post = await deps.db.selectFrom('posts').select('unlock_price_cents').where('id', '=', postId).executeTakeFirst();
  if (post?.unlock_price_cents === priceCents) return;
  await requireMaySell(deps, userId, 'postPrice');
}
