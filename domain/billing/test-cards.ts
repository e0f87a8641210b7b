import { sql } from 'kysely';
import { TEST_CARDS, type TestCardBrand, type TestCardDto } from '../../common/test-cards';
import { WALLET_TEXTS } from '../../common/wallet-texts';
import type { DB } from '../../core/db/kysely';
import { BillingError } from './errors';

/**
 * The built-in provider's wallet (issue 47 item 6; docs/payments.md, "The wallet"): a fan's test
 * cards, one of them the default. Every change runs under the fan's wallet lock, so two presses at
 * once never leave two defaults (the partial unique index would refuse it) or none while cards
 * remain.
 */

async function lockWallet(trx: DB, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`wallet:${userId}`}, 0))`.execute(trx);
}

/** The fan's test cards, the default first, then newest first. */
export async function listTestCards(db: DB, userId: string): Promise<TestCardDto[]> {
  const rows = await db
    .selectFrom('test_cards')
    .select(['id', 'brand', 'last4', 'is_default', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, brand: r.brand, last4: r.last4, isDefault: r.is_default, addedAt: r.created_at }));
}

/** Adds one of the test cards; the first card of the wallet is its default. */
export async function addTestCard(db: DB, userId: string, brand: TestCardBrand, at: Date): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await lockWallet(trx, userId);
    const cards = await trx.selectFrom('test_cards').select(['brand', 'is_default']).where('user_id', '=', userId).execute();
    if (cards.some((c) => c.brand === brand)) throw new BillingError('CONFLICT', WALLET_TEXTS.alreadyAdded);
    const inserted = await trx
      .insertInto('test_cards')
      .values({ user_id: userId, brand, last4: TEST_CARDS[brand].last4, is_default: !cards.some((c) => c.is_default), created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  });
}

/** Makes one of the fan's own cards the default (another fan's card is not found). */
export async function makeTestCardDefault(db: DB, userId: string, cardId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockWallet(trx, userId);
    const card = await trx.selectFrom('test_cards').select('id').where('id', '=', cardId).where('user_id', '=', userId).executeTakeFirst();
    if (!card) throw new BillingError('NOT_FOUND', WALLET_TEXTS.cardNotFound);
    // the old default steps down first: one default at a time (test_cards_one_default)
    await trx.updateTable('test_cards').set({ is_default: false }).where('user_id', '=', userId).where('is_default', '=', true).where('id', '<>', cardId).execute();
    await trx.updateTable('test_cards').set({ is_default: true }).where('id', '=', cardId).execute();
  });
}

/** Removes one of the fan's own cards; when it was the default, the newest card left becomes it. */
export async function removeTestCard(db: DB, userId: string, cardId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockWallet(trx, userId);
    const removed = await trx.deleteFrom('test_cards').where('id', '=', cardId).where('user_id', '=', userId).returning('is_default').executeTakeFirst();
    if (!removed) throw new BillingError('NOT_FOUND', WALLET_TEXTS.cardNotFound);
    if (!removed.is_default) return;
    const next = await trx
      .selectFrom('test_cards')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (next) await trx.updateTable('test_cards').set({ is_default: true }).where('id', '=', next.id).execute();
  });
}
