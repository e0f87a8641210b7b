import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { fromCents } from '../../common/money';
import { DATA_EXPORT_TEXTS } from '../../common/security';
import { USER_DTO_COLUMNS } from '../../domain/people/user-columns';

/** The SQL of the "Download my data" job (data-export.ts): its export row, and every row of the user's data. */

/** Counts one more run of a pending export; undefined when it is not pending (ready, failed, gone). */
export function startExportRun(db: DB, exportId: string) {
  return db
    .updateTable('data_exports')
    .set((eb) => ({ runs: eb('runs', '+', 1) }))
    .where('id', '=', exportId)
    .where('status', '=', 'pending')
    .returning(['user_id', 'runs'])
    .executeTakeFirst();
}

export async function findExportStatus(db: DB, exportId: string): Promise<string | undefined> {
  return (await db.selectFrom('data_exports').select('status').where('id', '=', exportId).executeTakeFirst())?.status;
}

/** The zip is stored: the pending export becomes ready; false when it is no longer pending (replaced, deleted). */
export async function markExportReady(trx: DB, exportId: string, key: string, size: number): Promise<boolean> {
  const updated = await trx
    .updateTable('data_exports')
    .set({ status: 'ready', storage_key: key, byte_size: size, ready_at: new Date() })
    .where('id', '=', exportId)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return updated !== undefined;
}

/** Every row of the user's data, in a few queries (one per kind, never one per row). */
export async function collectUserData(db: DB, userId: string) {
  const profile = await db
    .selectFrom('users')
    .innerJoin('profiles', 'profiles.id', 'users.id')
    .select([
      ...USER_DTO_COLUMNS,
      'users.created_at as account_created_at',
      'profiles.bio',
      'profiles.categories',
      'profiles.custom_links',
      'profiles.social_links',
      'profiles.date_of_birth',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();

  const posts = await db
    .selectFrom('posts')
    .select(['id', 'title', 'post_text', 'hashtags', 'is_premium', 'is_nsfw', 'status', 'media_kind', 'original_filename', 'created_at', 'published_at'])
    .where('creator_id', '=', userId)
    .orderBy('created_at')
    .execute();

  const originals = posts.length
    ? await db
        .selectFrom('media_files')
        .select(['post_id as postId', 'storage_key as key'])
        .where(
          'post_id',
          'in',
          posts.map((p) => p.id),
        )
        .where('variant', '=', 'original')
        .execute()
    : [];

  const comments = await db
    .selectFrom('comments')
    .select(['id', 'post_id', 'parent_id', 'comment_text', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();

  const messages = await db
    .selectFrom('messages')
    .innerJoin('profiles as sender', 'sender.id', 'messages.sender_id')
    .innerJoin('profiles as recipient', 'recipient.id', 'messages.recipient_id')
    .select([
      'messages.id',
      'sender.username as from',
      'recipient.username as to',
      'messages.content',
      'messages.media_type',
      'messages.created_at',
      'messages.edited_at',
      'messages.read_at',
    ])
    .where((eb) => eb.or([eb('messages.sender_id', '=', userId), eb('messages.recipient_id', '=', userId)]))
    .orderBy('messages.created_at')
    .execute();

  const subscribedTo = await db
    .selectFrom('subscriptions')
    .innerJoin('subscription_tiers', 'subscription_tiers.id', 'subscriptions.tier_id')
    .leftJoin('profiles', 'profiles.id', 'subscription_tiers.creator_id')
    .select([
      'subscriptions.id',
      'profiles.username as creator',
      'subscription_tiers.name as tier',
      'subscription_tiers.price_cents',
      'subscription_tiers.payment_interval',
      'subscriptions.status',
      'subscriptions.current_period_start',
      'subscriptions.current_period_end',
      'subscriptions.created_at',
    ])
    .where('subscriptions.subscriber_id', '=', userId)
    .orderBy('subscriptions.created_at')
    .execute();

  const subscribers = await db
    .selectFrom('subscribers')
    .innerJoin('profiles', 'profiles.id', 'subscribers.subscriber_id')
    .innerJoin('subscription_tiers', 'subscription_tiers.id', 'subscribers.tier_id')
    .select(['profiles.username as subscriber', 'subscription_tiers.name as tier', 'subscribers.status', 'subscribers.created_at'])
    .where('subscribers.creator_id', '=', userId)
    .orderBy('subscribers.created_at')
    .execute();

  const payments = await db
    .selectFrom('payments')
    .select(['id', 'tier_id', 'subscription_id', 'amount_cents', 'currency', 'provider', 'status', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();

  return {
    profile: profile ?? null,
    posts,
    originals,
    comments,
    messages,
    // money in rand, as the app shows it (and as exports were before amounts were cents)
    subscriptions: { subscribedTo: subscribedTo.map(({ price_cents, ...s }) => ({ ...s, price: fromCents(readCents(price_cents)) })), subscribers },
    payments: payments.map(({ amount_cents, ...p }) => ({ ...p, amount: fromCents(readCents(amount_cents)) })),
  };
}

/** The export ends: the screen shows the reason and lets the user ask again at once (the cooldown skips failed ones). */
export async function markDataExportFailed(db: DB, exportId: string): Promise<void> {
  await db
    .updateTable('data_exports')
    .set({ status: 'failed', failure_reason: DATA_EXPORT_TEXTS.failed })
    .where('id', '=', exportId)
    .where('status', '=', 'pending')
    .execute();
}
