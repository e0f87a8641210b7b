import { sql, type Kysely } from 'kysely';
import { avatarIncomingKey, avatarKeyOfUrl } from '../../../common/settings';
import type { Database } from '../../../core/db/schema';
import { attachmentStoredKeys } from '../../../domain/messaging/attachments';

/** A pool or a transaction. */
type Db = Kysely<Database>;

/** One read for the Account Settings screen and its confirmation dialogs (what would be lost). */
export async function findManagementState(db: Db, userId: string) {
  return db
    .selectFrom('profiles')
    .leftJoin('privacy_settings', 'privacy_settings.user_id', 'profiles.id')
    .leftJoin('totp_credentials', 'totp_credentials.user_id', 'profiles.id')
    .select((eb) => [
      'profiles.is_creator',
      'privacy_settings.profile_visibility',
      'totp_credentials.enabled_at as two_factor_enabled_at',
      eb.selectFrom('posts').select(eb.fn.countAll<string>().as('n')).where('posts.creator_id', '=', userId).as('posts'),
      eb
        .selectFrom('messages')
        .select(eb.fn.countAll<string>().as('n'))
        .where((w) => w.or([w('messages.sender_id', '=', userId), w('messages.recipient_id', '=', userId)]))
        .as('messages'),
      eb
        .selectFrom('subscribers')
        .select(eb.fn.countAll<string>().as('n'))
        .where('subscribers.creator_id', '=', userId)
        .where('subscribers.status', '=', 'active')
        .as('subscribers'),
      eb
        .selectFrom('subscriptions')
        .select(eb.fn.countAll<string>().as('n'))
        .where('subscriptions.subscriber_id', '=', userId)
        .where('subscriptions.status', '=', 'active')
        .as('subscriptions'),
    ])
    .where('profiles.id', '=', userId)
    .executeTakeFirst();
}

/**
 * Hide Account: the visibility it replaces is kept (an account already hidden keeps what it kept),
 * and showing returns to it ('public' when nothing was kept). One statement, so two clicks at
 * once cannot store 'hidden' as the visibility to return to. A missing settings row is created.
 */
export async function setProfileHidden(db: Db, userId: string, hidden: boolean): Promise<void> {
  if (hidden) {
    await db
      .insertInto('privacy_settings')
      .values({ user_id: userId, profile_visibility: 'hidden', visibility_before_hidden: 'public' })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          visibility_before_hidden: sql`case when privacy_settings.profile_visibility = 'hidden' then privacy_settings.visibility_before_hidden else privacy_settings.profile_visibility end`,
          profile_visibility: 'hidden',
          updated_at: new Date(),
        }),
      )
      .execute();
    return;
  }
  await db
    .insertInto('privacy_settings')
    .values({ user_id: userId, profile_visibility: 'public' })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        profile_visibility: sql`case when privacy_settings.profile_visibility = 'hidden' then coalesce(privacy_settings.visibility_before_hidden, 'public') else privacy_settings.profile_visibility end`,
        visibility_before_hidden: null,
        updated_at: new Date(),
      }),
    )
    .execute();
}

/**
 * Every stored file of the user's data, read inside the deletion's transaction: their posts'
 * files, the files of every message they sent or received (and their own chat uploads), their
 * avatar (and one being processed) and their exports.
 */
export async function collectStoredFiles(trx: Db, userId: string): Promise<string[]> {
  const postFiles = await trx
    .selectFrom('media_files')
    .innerJoin('posts', 'posts.id', 'media_files.post_id')
    .select('media_files.storage_key as key')
    .where('posts.creator_id', '=', userId)
    .execute();
  const messageFiles = await trx
    .selectFrom('messages')
    .select('media_key as key')
    .where((eb) => eb.or([eb('sender_id', '=', userId), eb('recipient_id', '=', userId)]))
    .where('media_key', 'is not', null)
    .execute();
  const attachments = await trx
    .selectFrom('message_attachments')
    .select(['source_key', 'storage_key', 'ladder_keys'])
    .where((eb) =>
      eb.or([
        eb('owner_id', '=', userId),
        eb(
          'id',
          'in',
          eb
            .selectFrom('messages')
            .select('attachment_id')
            .where('attachment_id', 'is not', null)
            .where((w) => w.or([w('sender_id', '=', userId), w('recipient_id', '=', userId)])),
        ),
      ]),
    )
    .execute();
  const profile = await trx.selectFrom('profiles').select(['avatar_url', 'avatar_pending_id']).where('id', '=', userId).executeTakeFirst();
  const exports = await trx.selectFrom('data_exports').select('storage_key as key').where('user_id', '=', userId).execute();
  const keys = [
    ...postFiles.map((r) => r.key),
    ...messageFiles.map((r) => r.key),
    ...attachments.flatMap(attachmentStoredKeys),
    avatarKeyOfUrl(profile?.avatar_url ?? null),
    profile?.avatar_pending_id ? avatarIncomingKey(userId, profile.avatar_pending_id) : null,
    ...exports.map((r) => r.key),
  ];
  return [...new Set(keys.filter((k): k is string => !!k))];
}

/**
 * Delete Account: the outbox rows whose job or data name the user (mail to them, their avatar,
 * their old deletions), whatever their state: done rows are kept a week otherwise, and a pending
 * job for a deleted account would only skip.
 */
export async function forgetOutboxRowsOf(trx: Db, userId: string): Promise<void> {
  await trx
    .deleteFrom('outbox')
    .where((eb) => eb.or([eb(sql<number>`position(${userId} in job_id)`, '>', 0), eb(sql<number>`position(${userId} in data::text)`, '>', 0)]))
    .execute();
}

/**
 * Delete All Data (spec part 2 §7 Deletion, and what we added since): the rows of the user's
 * content and relations on both sides, in the caller's transaction. The account, its settings,
 * sessions and two-factor stay. Others' rows that only existed with the user's go with them
 * (replies to the user's comments, likes and comments on the user's posts, both sides of the
 * user's conversations, fans' subscriptions to the user's tiers); payments stay in the ledger,
 * detached from the deleted tiers (payments.tier_id set null, its description kept).
 */
export async function deleteUserData(trx: Db, userId: string): Promise<void> {
  const attachmentIds = (
    await trx
      .selectFrom('messages')
      .select('attachment_id')
      .where('attachment_id', 'is not', null)
      .where((eb) => eb.or([eb('sender_id', '=', userId), eb('recipient_id', '=', userId)]))
      .execute()
  ).map((r) => r.attachment_id!);

  // Messages, both sides: the conversation rows first (they point at the last message).
  await trx.deleteFrom('conversations').where((eb) => eb.or([eb('user_id', '=', userId), eb('partner_id', '=', userId)])).execute();
  await trx.deleteFrom('message_reactions').where('user_id', '=', userId).execute();
  await trx.deleteFrom('messages').where((eb) => eb.or([eb('sender_id', '=', userId), eb('recipient_id', '=', userId)])).execute();
  await trx
    .deleteFrom('message_attachments')
    .where((eb) => eb.or([eb('owner_id', '=', userId), ...(attachmentIds.length ? [eb('id', 'in', attachmentIds)] : [])]))
    .execute();

  // Posts (creator_files) and what hangs on them (media rows, likes, comments, bookmarks: cascade).
  await trx.deleteFrom('posts').where('creator_id', '=', userId).execute();
  await trx.deleteFrom('uploads').where('user_id', '=', userId).execute();
  await trx.deleteFrom('post_likes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('bookmarks').where('user_id', '=', userId).execute();
  await trx.deleteFrom('comments').where('user_id', '=', userId).execute();

  // Subscriptions, both sides: theirs, their fans' (on their tiers), the spec's subscribers rows,
  // then their tiers (payments are detached by the foreign key, not deleted).
  const ownTiers = trx.selectFrom('subscription_tiers').select('id').where('creator_id', '=', userId);
  await trx.deleteFrom('subscribers').where((eb) => eb.or([eb('creator_id', '=', userId), eb('subscriber_id', '=', userId)])).execute();
  await trx.deleteFrom('subscriptions').where((eb) => eb.or([eb('subscriber_id', '=', userId), eb('tier_id', 'in', ownTiers)])).execute();
  await trx.deleteFrom('subscription_tiers').where('creator_id', '=', userId).execute();

  await trx.deleteFrom('media_settings').where('creator_id', '=', userId).execute();
  await trx.deleteFrom('data_exports').where('user_id', '=', userId).execute();

  // The spec's blanked profile fields: bio, custom_links, social_links, avatar, is_premium, categories.
  await trx
    .updateTable('profiles')
    .set({
      bio: null,
      custom_links: '[]',
      social_links: '{}',
      avatar_url: null,
      avatar_pending_id: null,
      avatar_failure: null,
      is_premium: false,
      categories: sql<string[]>`'{}'::text[]`,
      updated_at: new Date(),
    })
    .where('id', '=', userId)
    .execute();
}

/** Delete Account's last step: the user row; every remaining row refers to it with ON DELETE cascade or set null. */
export async function deleteUserRow(trx: Db, userId: string): Promise<string[]> {
  const sessions = await trx.deleteFrom('sessions').where('user_id', '=', userId).returning('id').execute();
  await trx.deleteFrom('users').where('id', '=', userId).execute();
  return sessions.map((s) => s.id);
}
