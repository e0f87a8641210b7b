import { sql } from 'kysely';
import type { MediaKind } from '../../common/enums';
import type { VaultFileRef } from '../../common/vault-schemas';
import type { DB } from '../../core/db/kysely';

/**
 * The media vault's statements the server's features share (a new post, a message's file and a
 * deletion all start from a vault file): a vault file is a stored object of one of the creator's
 * processed posts, named by a post it is in and its place there.
 */

/** A processed post: its files are in the vault (a post processing or failed is not yet). */
const PROCESSED = ['published', 'draft', 'scheduled'] as const;

/** The stored variants of a creator's processed posts, each with its post (`p`) and its file row (`f`, absent for a post of one file). */
export function creatorsProcessedFiles(db: DB, creatorId: string) {
  return db
    .selectFrom('media_files as m')
    .innerJoin('posts as p', 'p.id', 'm.post_id')
    .leftJoin('post_files as f', (j) => j.onRef('f.post_id', '=', 'm.post_id').onRef('f.position', '=', 'm.position'))
    .where('p.creator_id', '=', creatorId)
    .where('p.status', 'in', PROCESSED);
}

/**
 * The stored variants of the files named, when each is in one of the creator's processed posts;
 * a file of another creator's post (or of none) is simply absent, and the caller refuses.
 */
export function findOwnProcessedFiles(db: DB, creatorId: string, refs: VaultFileRef[]) {
  return creatorsProcessedFiles(db, creatorId)
    .select([
      'm.post_id',
      'm.position',
      'm.variant',
      'm.storage_key',
      'm.content_type',
      'm.byte_size',
      'm.width',
      'm.height',
      'm.duration_seconds',
      sql<MediaKind>`coalesce(f.media_kind, p.media_kind)`.as('kind'),
      sql<string>`coalesce(f.original_filename, p.original_filename, 'file')`.as('filename'),
    ])
    .where((eb) => eb.or(refs.map((r) => eb.and([eb('m.post_id', '=', r.postId), eb('m.position', '=', r.position)]))))
    .execute();
}

/** The vault object a file stands for: the key of its 'original' (undefined when not the creator's). */
export async function findVaultKey(db: DB, creatorId: string, ref: VaultFileRef): Promise<string | undefined> {
  const row = await creatorsProcessedFiles(db, creatorId)
    .select('m.storage_key')
    .where('m.post_id', '=', ref.postId)
    .where('m.position', '=', ref.position)
    .where('m.variant', '=', 'original')
    .executeTakeFirst();
  return row?.storage_key;
}

/**
 * The creator's posts that hold the vault object `key` (any state), each with the file's place
 * and how many files the post has, oldest first; `lock` takes the posts FOR UPDATE (a deletion).
 */
export function findPostsUsingKey(db: DB, creatorId: string, key: string, lock = false) {
  return db
    .selectFrom('media_files as m')
    .innerJoin('posts as p', 'p.id', 'm.post_id')
    .select([
      'p.id',
      'p.title',
      sql<string | null>`left(p.post_text, 80)`.as('text'),
      'p.status',
      'm.position',
      sql<number>`(select count(distinct o.position)::int from media_files o where o.post_id = p.id)`.as('file_count'),
    ])
    .where('m.storage_key', '=', key)
    .where('p.creator_id', '=', creatorId)
    .orderBy('p.created_at')
    .$if(lock, (q) => q.forUpdate('p'))
    .execute();
}

/** The messages (and messages to many) that carry a copy of the vault object `key`, newest first, at most `limit`. */
export function findMessagesUsingKey(db: DB, creatorId: string, key: string, limit: number) {
  return db
    .selectFrom('message_attachments as a')
    // a message to many is one use, not one per fan it reached
    .leftJoin('messages as msg', (j) => j.onRef('msg.attachment_id', '=', 'a.id').on('msg.mass_message_id', 'is', null))
    .leftJoin('profiles as r', 'r.id', 'msg.recipient_id')
    .leftJoin('mass_messages as mm', 'mm.attachment_id', 'a.id')
    .select(['a.id', 'msg.id as message_id', 'r.username as recipient', 'mm.id as mass_message_id', sql<string | null>`coalesce(msg.price_cents, mm.price_cents)`.as('price_cents'), 'a.created_at'])
    .where('a.vault_key', '=', key)
    .where('a.owner_id', '=', creatorId)
    .where((eb) => eb.or([eb('msg.id', 'is not', null), eb('mm.id', 'is not', null)]))
    .orderBy('a.created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Of `keys`, those no post's file names any more: safe to delete (a message's file from the vault is a copy of its own). */
export async function unusedKeys(trx: DB, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const used = await trx.selectFrom('media_files').select('storage_key').where('storage_key', 'in', keys).execute();
  const still = new Set(used.map((r) => r.storage_key));
  return [...new Set(keys)].filter((k) => !still.has(k));
}
