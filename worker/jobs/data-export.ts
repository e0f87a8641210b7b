import { ZipArchive } from 'archiver';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MAIL_JOB_OPTIONS } from '../../common/jobs';
import { DATA_EXPORT, DATA_EXPORT_TEXTS } from '../../common/security';
import type { DB } from '../../core/db/kysely';
import { addToOutbox, dispatchOutbox } from '../../core/outbox/outbox';
import type { WorkerDeps } from '../registry';
import { exportTempPrefix } from '../temp-dirs';

export const exportReadyJobId = (exportId: string) => `export-ready-${exportId}`;

/**
 * "Download my data" (issues 13 and 23): one zip with the user's profile, posts (with each post's
 * media as stored: processed and watermarked, the upload itself is not kept; README.txt says so),
 * comments, messages (both directions), subscriptions (both sides) and payments, as JSON.
 * Built in a temp folder (swept at a worker's start when its worker died: worker/temp-dirs.ts),
 * stored under exports/<userId>/<exportId>.zip, then the owner is mailed a link that only their
 * session can open (server/features/account/export-download.ts); the mail's outbox row is written
 * with 'ready'. Idempotent: a ready or failed export is skipped; a run that restarts (a worker
 * killed, the job retried) starts over from the rows. Each start is counted first: past
 * DATA_EXPORT.maxRuns the export fails with its reason on the screen instead of hanging.
 */
export async function buildDataExport(deps: WorkerDeps, exportId: string): Promise<{ skipped?: string; bytes?: number }> {
  const { db, storage } = deps;
  const started = await db
    .updateTable('data_exports')
    .set((eb) => ({ runs: eb('runs', '+', 1) }))
    .where('id', '=', exportId)
    .where('status', '=', 'pending')
    .returning(['user_id', 'runs'])
    .executeTakeFirst();
  if (!started) {
    const row = await db.selectFrom('data_exports').select('status').where('id', '=', exportId).executeTakeFirst();
    return { skipped: row?.status ?? 'gone' };
  }
  if (started.runs > DATA_EXPORT.maxRuns) {
    await markDataExportFailed(db, exportId);
    deps.log.error({ exportId, runs: started.runs - 1 }, 'data export failed for good: every run ended before the zip was built');
    return { skipped: 'failed' };
  }
  const userId = started.user_id;

  const data = await collectUserData(db, userId);
  const dir = await mkdtemp(path.join(tmpdir(), exportTempPrefix(exportId)));
  const zipPath = path.join(dir, 'export.zip');
  try {
    const archive = new ZipArchive({ zlib: { level: 6 } });
    const written = pipeline(archive, createWriteStream(zipPath));
    const addJson = (name: string, value: unknown) => archive.append(JSON.stringify(value, null, 2), { name });
    archive.append(DATA_EXPORT_TEXTS.readme, { name: 'README.txt' });
    addJson('profile.json', data.profile);
    addJson('posts.json', data.posts);
    addJson('comments.json', data.comments);
    addJson('messages.json', data.messages);
    addJson('subscriptions.json', data.subscriptions);
    addJson('payments.json', data.payments);
    // One stored file open at a time: the next is appended once the previous became an entry.
    for (const file of data.originals) {
      const object = await storage.get(file.key).catch(() => null);
      if (!object) continue;
      const entered = new Promise<void>((resolve) => archive.once('entry', () => resolve()));
      archive.append(object.stream, { name: `media/${file.postId}/${path.basename(file.key)}` });
      await entered;
    }
    await archive.finalize();
    await written;

    const key = `exports/${userId}/${exportId}.zip`;
    const size = (await stat(zipPath)).size;
    if (storage.putFile) await storage.putFile(key, zipPath, 'application/zip');
    else await storage.put(key, createReadStream(zipPath), 'application/zip');
    const mail = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('data_exports')
        .set({ status: 'ready', storage_key: key, byte_size: size, ready_at: new Date() })
        .where('id', '=', exportId)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!updated) return null;
      return addToOutbox(trx, { queue: 'mail', name: 'export-ready', data: { userId, exportId }, jobId: exportReadyJobId(exportId), options: MAIL_JOB_OPTIONS });
    });
    if (!mail) {
      // The account (or the export) was deleted or replaced meanwhile: the file must not stay behind.
      await storage.delete(key);
      return { skipped: 'gone' };
    }
    await dispatchOutbox(deps, [mail]);
    return { bytes: size };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every row of the user's data, in a few queries (one per kind, never one per row). */
export async function collectUserData(db: DB, userId: string) {
  const profile = await db
    .selectFrom('users')
    .innerJoin('profiles', 'profiles.id', 'users.id')
    .select([
      'users.email',
      'users.created_at as account_created_at',
      'profiles.username',
      'profiles.display_name',
      'profiles.bio',
      'profiles.avatar_url',
      'profiles.categories',
      'profiles.custom_links',
      'profiles.social_links',
      'profiles.is_creator',
      'profiles.is_verified',
      'profiles.is_premium',
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
      'subscription_tiers.price',
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
    .select(['id', 'tier_id', 'subscription_id', 'amount', 'currency', 'provider', 'status', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();

  return {
    profile: profile ?? null,
    posts,
    originals,
    comments,
    messages,
    subscriptions: { subscribedTo, subscribers },
    payments,
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
