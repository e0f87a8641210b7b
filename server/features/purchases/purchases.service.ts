import { postName } from '../../../common/post-name';
import type { PurchaseDto, PurchasePageDto, PurchasesInput } from '../../../common/purchase-schemas';
import { fromCents } from '../../../common/money';
import { readCents } from '../../../core/db/cents';
import type { AppDeps } from '../../../core/deps';
import { findPurchasePage } from './purchases.queries';

/**
 * The fan's "Purchased" collection (issue 47 item 8): everything they bought (pay-per-view posts,
 * paid messages), newest first, filtered by kind, keyset-paged. Always the signed-in user's own:
 * no input names a user.
 */
export async function myPurchases(deps: Pick<AppDeps, 'db'>, userId: string, input: PurchasesInput): Promise<PurchasePageDto> {
  const rows = await findPurchasePage(deps.db, { fanId: userId, filter: input.filter, cursor: input.cursor ?? null, limit: input.limit });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const items = page.map((r): PurchaseDto => {
    const creator = { username: r.username ?? '', displayName: r.display_name ?? '', avatarUrl: r.avatar_url };
    return {
      id: r.id,
      kind: r.kind,
      amount: fromCents(readCents(r.amount_cents)),
      purchasedAt: r.purchased_at,
      creator,
      post: r.post_id ? { id: r.post_id, name: postName({ title: r.post_title, creator }) } : null,
      message: r.message_id ? { id: r.message_id, text: r.message_text } : null,
    };
  });
  return { items, nextCursor: rows.length > input.limit && last ? { createdAt: last.cursor_at, id: last.id } : null };
}
