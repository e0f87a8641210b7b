import { sql } from 'kysely';
import type { MediaKind } from '../../../common/enums';
import type { DB } from '../../../core/db/kysely';
import { creatorsProcessedFiles } from '../../../domain/posts/vault.queries';
import type { VaultListInput } from '../../../common/vault-schemas';

/**
 * The creator's vault: every stored object they uploaded and had processed, once (posts that
 * took it from the vault share its key: the first row of the key stands for it), newest first,
 * with its kind and the posts it is in. One statement; `media_files_storage_key_idx` serves the
 * per-key lookups of the page's rows.
 */
export function findVaultFiles(db: DB, creatorId: string, filter: VaultListInput, limit: number) {
  const kind = sql<MediaKind>`coalesce(f.media_kind, p.media_kind)`;
  return creatorsProcessedFiles(db, creatorId)
    .select([
      'm.post_id',
      'm.position',
      'm.content_type',
      'm.created_at',
      kind.as('kind'),
      sql<string | null>`coalesce(f.original_filename, case when m.position = 0 then p.original_filename end)`.as('filename'),
      sql<{ id: string; title: string | null; text: string | null; status: string }[]>`(
        select coalesce(json_agg(json_build_object('id', up.id, 'title', up.title, 'text', left(up.post_text, 80), 'status', up.status) order by up.created_at), '[]')
        from media_files u join posts up on up.id = u.post_id
        where u.storage_key = m.storage_key and up.creator_id = ${creatorId})`.as('used_in'),
    ])
    .where('m.variant', '=', 'original')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('media_files as o').select('o.id').whereRef('o.storage_key', '=', 'm.storage_key').whereRef('o.created_at', '<', 'm.created_at'))),
    )
    .$if(!!filter.kind, (q) => q.where(kind, '=', filter.kind!))
    .$if(!!filter.used, (q) =>
      q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('media_files as u')
            .innerJoin('posts as up', 'up.id', 'u.post_id')
            .select('u.id')
            .whereRef('u.storage_key', '=', 'm.storage_key')
            .where('up.status', '=', filter.used!),
        ),
      ),
    )
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute();
}
