import type { DB } from '../../core/db/kysely';
import type { Realtime } from '../../core/realtime/realtime';
import type { PurchaseDone } from './effects';
import { findTipEvent } from './tip';

/**
 * After the commit of one-off charges the webhook or a card wrote: the creator's open tabs hear a
 * tip (`tip:received`, as when the built-in provider wrote it); the fan's tabs hear that a message
 * opened (`entitlement:changed`: the thread refetches). An unlocked post is an entitlement already.
 */
export async function announcePurchases(deps: { db: DB; realtime: Realtime }, purchases: PurchaseDone[] = []): Promise<void> {
  for (const p of purchases) {
    if (p.purpose === 'tip') {
      const tip = await findTipEvent(deps.db, p.paymentId);
      if (tip) deps.realtime.toUser(tip.creatorId, 'tip:received', tip.event);
    }
    if (p.purpose === 'message_unlock' && p.messageId) {
      deps.realtime.toUser(p.userId, 'entitlement:changed', { subject: { kind: 'message', messageId: p.messageId }, active: true });
    }
  }
}
