import type { DB } from '../../../core/db/kysely';

export function findMediaSettings(db: DB, creatorId: string) {
  return db
    .selectFrom('media_settings')
    .select(['watermark_enabled', 'watermark_text', 'watermark_position', 'mark_paid_pictures'])
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
}

/** The spec's upsert on creator_id. */
export function upsertMediaSettings(
  db: DB,
  creatorId: string,
  values: {
    watermark_enabled: boolean;
    watermark_text: string | null;
    watermark_position: 'center' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';
    mark_paid_pictures: boolean;
  },
) {
  return db
    .insertInto('media_settings')
    .values({ creator_id: creatorId, ...values })
    .onConflict((oc) => oc.column('creator_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .returning(['watermark_enabled', 'watermark_text', 'watermark_position', 'mark_paid_pictures'])
    .executeTakeFirstOrThrow();
}
