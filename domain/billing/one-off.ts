import { CARD_TEXTS } from '../../common/card-texts';
import { BILLING_TEXTS } from '../../common/texts';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { notifyPurchase } from '../notifications/money';
import { insertPayment, lockPair } from './billing.queries';
import { findSavedCard } from './cards';
import { addReceipt, noEffects, type BillingEffects, type OneOffPurpose } from './effects';
import { BillingError } from './errors';
import { findUnlockCharge } from './message-unlock.queries';
import { decideRefund } from './refunds';
import type { BillingDeps } from './billing-deps';

/** What a one-off purchase is, decided under the pair's lock by its own rules (./tip.ts, ./post-unlock.ts, ./message-unlock.ts). */
export interface OneOffItem {
  purpose: OneOffPurpose;
  creatorId: string;
  amountCents: number;
  description: string;
  postId?: string | null;
  messageId?: string | null;
  tipMessage?: string | null;
}

/** One purchase of a kind: whose lock it takes with the fan's, where the fan comes back to, and the kind's own rules. */
export interface OneOffPurchase<R> {
  /** the other half of the pair's lock */
  creatorId: string;
  /** the app's path the fan comes back to from a hosted page ('/post/…', '/messages/…') */
  returnPath: string;
  texts: { failed: string };
  /** the same press again (this key, or the same item bought already): its answer; throws when the key went on something else */
  repeat(trx: DB): Promise<R | null>;
  /** under the lock: the kind's rules again, and the item at its price now */
  item(trx: DB): Promise<OneOffItem>;
  /** the answer once the charge is written */
  answer(item: OneOffItem, paymentId: string, at: Date): R;
}

/** The fan and their client key (a UUID per confirmation). */
export interface OneOffKey {
  userId: string;
  idempotencyKey: string;
}

/**
 * 'paid': written now (the built-in provider, or a card on file that went through); 'redirect':
 * the fan finishes on the provider's page (Checkout without a card, or 3-D Secure), and the
 * webhook writes it; 'processing': the webhook writes it once the bank answers.
 */
export type OneOffOutcome<R> =
  | { kind: 'paid'; result: R; effects: BillingEffects; repeated: boolean }
  | { kind: 'redirect'; url: string }
  | { kind: 'processing' };

/**
 * The one path of every one-off purchase (a tip, a post or message unlock; docs/payments.md): the
 * pair's advisory lock, the repeat of an earlier press answered as it was, the kind's rules again
 * under the lock, then the charge. With the built-in provider it is charged and written in this
 * transaction. With Stripe the confirmed item is kept as a pending charge (once per client key),
 * and after the commit the card on file is charged off the page (written at once when it goes
 * through; 3-D Secure sends the fan to the bank's page) or, without a card, the fan is sent to
 * Checkout; the webhook then writes it, once (`completePending`).
 */
export async function chargeOneOff<R>(deps: BillingDeps, req: OneOffKey, kind: OneOffPurchase<R>): Promise<OneOffOutcome<R>> {
  const p = { ...kind, ...req };
  const decided = await deps.db.transaction().execute(async (trx) => {
    await lockPair(trx, p.userId, p.creatorId);
    const done = await p.repeat(trx);
    if (done) return { kind: 'paid' as const, result: done, effects: noEffects(), repeated: true };
    const item = await p.item(trx);
    if (deps.provider.flow === 'checkout') return { kind: 'pending' as const, item, pendingId: await savePending(trx, deps.provider.name, p, item) };
    const at = deps.clock.now();
    const charge = await deps.provider.charge({ userId: p.userId, amountCents: item.amountCents, description: item.description, idempotencyKey: p.idempotencyKey });
    if (!charge.ok) throw new BillingError('PAYMENT_FAILED', p.texts.failed);
    const written = await recordOneOff(trx, deps, { userId: p.userId, idempotencyKey: p.idempotencyKey, item, provider: deps.provider.name, ref: charge.ref, at });
    return { kind: 'paid' as const, result: p.answer(item, written.paymentId, at), effects: written.effects, repeated: false };
  });
  if (decided.kind === 'paid') return decided;
  return payAtProvider(deps, p, decided.item, decided.pendingId);
}

/** The pending charge of this key: made now, or the one an earlier press made (which must be the same item). */
async function savePending(trx: DB, provider: string, p: OneOffPurchase<unknown> & OneOffKey, item: OneOffItem): Promise<string> {
  await trx
    .insertInto('pending_charges')
    .values({
      user_id: p.userId, idempotency_key: p.idempotencyKey, purpose: item.purpose, creator_id: item.creatorId, post_id: item.postId ?? null,
      message_id: item.messageId ?? null, tip_message: item.tipMessage ?? null, amount_cents: item.amountCents, description: item.description, provider,
    })
    .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
    .execute();
  const row = await trx.selectFrom('pending_charges').selectAll().where('user_id', '=', p.userId).where('idempotency_key', '=', p.idempotencyKey).executeTakeFirstOrThrow();
  const same = row.purpose === item.purpose && row.creator_id === item.creatorId && (row.post_id ?? null) === (item.postId ?? null)
    && (row.message_id ?? null) === (item.messageId ?? null) && readCents(row.amount_cents) === item.amountCents;
  if (!same) throw new BillingError('CONFLICT', BILLING_TEXTS.requestKeyUsed);
  return row.id;
}

/** After the pending charge committed: the card on file, else Checkout. Network calls, outside any transaction. */
async function payAtProvider<R>(deps: BillingDeps, p: OneOffPurchase<R> & OneOffKey, item: OneOffItem, pendingId: string): Promise<OneOffOutcome<R>> {
  const back = `${deps.appUrl}${p.returnPath}`;
  const join = back.includes('?') ? '&' : '?';
  const card = await findSavedCard(deps.db, p.userId, deps.provider.name);
  const request = { userId: p.userId, amountCents: item.amountCents, description: item.description, pendingId, idempotencyKey: p.idempotencyKey };
  if (!card?.payment_method_id) {
    const user = await deps.db.selectFrom('users').select('email').where('id', '=', p.userId).executeTakeFirstOrThrow();
    const { url } = await deps.provider.createOneOffCheckout({
      ...request, email: user.email, successUrl: `${back}${join}checkout=paid`, cancelUrl: `${back}${join}checkout=cancelled`,
    });
    return { kind: 'redirect', url };
  }
  const result = await deps.provider.chargeCard({ ...request, customerId: card.customer_id, paymentMethodId: card.payment_method_id, returnUrl: `${back}${join}checkout=paid` });
  switch (result.status) {
    case 'declined':
      // nothing was charged: nothing stays written (the fan may try again with a new key)
      await deps.db.deleteFrom('pending_charges').where('id', '=', pendingId).where('payment_id', 'is', null).execute();
      throw new BillingError('PAYMENT_FAILED', CARD_TEXTS.declined);
    case 'requires_action':
      return { kind: 'redirect', url: result.url };
    case 'processing':
      return { kind: 'processing' };
    case 'succeeded': {
      const done = await deps.db.transaction().execute((trx) => completePending(trx, deps, pendingId, { ref: result.ref, amountCents: item.amountCents }));
      if (!done) throw new BillingError('PAYMENT_FAILED', p.texts.failed);
      return { kind: 'paid', result: p.answer(item, done.paymentId, done.at), effects: done.effects, repeated: done.repeated };
    }
  }
}

/**
 * The money of a pending charge is in (the card's answer, or the provider's webhook, whichever
 * comes first: a Checkout sends both checkout.session.completed and payment_intent.succeeded):
 * under the pair's lock and the row's, the charge is written once and the row points at it; any
 * later call answers that payment and writes nothing. Null: no such pending charge.
 */
export async function completePending(
  trx: DB,
  deps: Pick<BillingDeps, 'provider' | 'clock' | 'earnings'>,
  pendingId: string,
  charge: { ref: string; amountCents: number },
): Promise<{ paymentId: string; effects: BillingEffects; repeated: boolean; at: Date } | null> {
  const head = await trx.selectFrom('pending_charges').select(['user_id', 'creator_id']).where('id', '=', pendingId).executeTakeFirst();
  if (!head) return null;
  await lockPair(trx, head.user_id, head.creator_id);
  const row = await trx.selectFrom('pending_charges').selectAll().where('id', '=', pendingId).forUpdate().executeTakeFirstOrThrow();
  const at = deps.clock.now();
  if (row.payment_id) return { paymentId: row.payment_id, effects: noEffects(), repeated: true, at };
  // what was paid is what the ledger holds (Stripe charges the amount the pending row was made with)
  const amountCents = charge.amountCents > 0 ? charge.amountCents : readCents(row.amount_cents);
  const item: OneOffItem = {
    purpose: row.purpose, creatorId: row.creator_id, amountCents, description: row.description, postId: row.post_id, messageId: row.message_id, tipMessage: row.tip_message,
  };
  const written = await recordOneOff(trx, deps, { userId: row.user_id, idempotencyKey: row.idempotency_key, item, provider: row.provider, ref: charge.ref, at });
  await trx.updateTable('pending_charges').set({ payment_id: written.paymentId }).where('id', '=', row.id).execute();
  return { ...written, repeated: false, at };
}

/**
 * The ledger's charge of a one-off purchase and what it bought, in the caller's transaction:
 * `insertPayment` (the split, the fan's history), the unlock row the access rule reads, the
 * receipt and the creator's notification; the live events are left for after the commit.
 */
async function recordOneOff(
  trx: DB,
  deps: Pick<BillingDeps, 'earnings'>,
  r: { userId: string; idempotencyKey: string; item: OneOffItem; provider: string; ref: string; at: Date },
): Promise<{ paymentId: string; effects: BillingEffects }> {
  const { item } = r;
  // the same post or message bought meanwhile under another key (two tabs, both paid through
  // Checkout): the money is recorded, the first charge keeps the unlock, and this one is paid back
  const messageFree = item.messageId ? !(await findUnlockCharge(trx, r.userId, item.messageId)) : false;
  // the post was deleted before its money arrived (pending_charges.post_id set null): nothing to
  // open, so the charge is recorded and paid back like a second purchase (a deleted message's
  // message_id is null too, which `messageFree` already reads as not buyable)
  const postGone = item.purpose === 'post_unlock' && !item.postId;
  const boughtAlready =
    postGone || (item.purpose === 'message_unlock' && !messageFree) || (item.purpose === 'post_unlock' && !!item.postId && (await hasLiveUnlock(trx, r.userId, item.postId)));
  const paymentId = await insertPayment(trx, {
    userId: r.userId, tierId: null, creatorId: item.creatorId, subscriptionId: null, description: item.description, idempotencyKey: r.idempotencyKey,
    amountCents: item.amountCents, provider: r.provider, providerRef: r.ref, status: 'succeeded', createdAt: r.at, earnings: deps.earnings,
    ...(item.purpose === 'tip' && { tip: { message: item.tipMessage ?? null } }),
    ...(item.purpose === 'message_unlock' && (messageFree && item.messageId ? { messageUnlock: { messageId: item.messageId } } : { purpose: 'message_unlock' as const })),
    ...(item.purpose === 'post_unlock' && { purpose: 'post_unlock' as const }),
  });
  const effects: BillingEffects = { ...noEffects(), jobs: [await addReceipt(trx, paymentId)] };
  if (boughtAlready) {
    // decided here, under the charge's lock: the amount reserved, the creator's share taken now
    const decided = await decideRefund(trx, { paymentId, amountCents: item.amountCents, systemKey: `${postGone ? 'gone' : 'duplicate'}-purchase-${paymentId}`, now: r.at });
    if (decided) effects.jobs.push(decided.job);
  } else if (item.purpose === 'post_unlock') {
    if (item.postId) {
      // bought again after a refund revoked it: the same row, pointing at the new charge
      await trx
        .insertInto('post_unlocks')
        .values({ post_id: item.postId, fan_id: r.userId, payment_id: paymentId, created_at: r.at })
        .onConflict((oc) => oc.columns(['fan_id', 'post_id']).doUpdateSet({ payment_id: paymentId, revoked_at: null }))
        .execute();
      effects.entitlements.push({ userId: r.userId, creatorId: item.creatorId, active: true, postId: item.postId });
    }
  } else {
    effects.jobs.push(...(await notifyPurchase(trx, { paymentId })));
  }
  if (!boughtAlready) effects.purchases = [{ purpose: item.purpose, paymentId, userId: r.userId, creatorId: item.creatorId, messageId: item.messageId ?? null }];
  return { paymentId, effects };
}

/** Whether the fan holds an unlock of the post that no refund or dispute has taken back. */
async function hasLiveUnlock(trx: DB, fanId: string, postId: string): Promise<boolean> {
  const row = await trx.selectFrom('post_unlocks').select('id').where('fan_id', '=', fanId).where('post_id', '=', postId).where('revoked_at', 'is', null).executeTakeFirst();
  return row !== undefined;
}
