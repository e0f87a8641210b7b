import type { FeedCursor } from '../../../common/post-schemas';
import type { DB } from '../../../core/db/kysely';
import { statementShape } from '../../../core/db/statement-shape';
import { visiblePostWhere } from '../../../domain/access/access';
import { cardsOf, cardsQuery, pageAfter, postsWithPrivacy, publishedKeys } from '../../shared/post-cards/post-cards.queries';

/**
 * One feed page: published posts visible to the viewer, newest published first, after the cursor.
 * Walks posts_feed_idx (published_at desc, id desc where published) and stops after `limit` rows.
 */
export function findFeedPage(db: DB, opts: { viewerId: string | null; cursor: FeedCursor | null; limit: number }) {
  return feedPage(db, { viewerId: opts.viewerId, cursor: opts.cursor ? { createdAt: opts.cursor.createdAt, id: opts.cursor.id } : null, limit: opts.limit });
}

// the most asked list: built and compiled once per shape (signed in or not, first page or not)
const feedPage = statementShape((db, { viewerId, cursor, limit }: { viewerId: string | null; cursor: { createdAt: string; id: string } | null; limit: number }) => {
  const page = postsWithPrivacy(db)
    .select(publishedKeys)
    .where('posts.status', '=', 'published')
    .where(visiblePostWhere(viewerId))
    .$if(cursor !== null, (q) => q.where(pageAfter(cursor!)))
    .orderBy('posts.published_at', 'desc')
    .orderBy('posts.id', 'desc')
    .limit(limit);
  return cardsQuery(db, viewerId, page);
}, { literals: ['limit'] });

/** Posts by id whatever their state, as cards for the viewer; the caller decides with the access rule. */
export function findPostCardsByIds(db: DB, viewerId: string | null, postIds: string[]) {
  return cardsOf(db, viewerId, db.selectFrom('posts').select(['posts.id', 'posts.created_at as sort_at']).where('posts.id', 'in', postIds));
}

/** Likes once: a second like changes nothing. True when a row was added. */
export async function insertLike(db: DB, postId: string, userId: string): Promise<boolean> {
  const result = await db
    .insertInto('post_likes')
    .values({ post_id: postId, user_id: userId })
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** True when a like was removed. */
export async function deleteLike(db: DB, postId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('post_likes').where('post_id', '=', postId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countLikes(db: DB, postId: string): Promise<number> {
  const row = await db
    .selectFrom('post_likes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What the media route needs: the post's access facts, its name (title, creator), and the asked variant if stored. */
export function findMediaRequest(db: DB, postId: string, variant: string, position = 0) {
  return db
    .selectFrom('posts')
    .innerJoin('profiles as pr', 'pr.id', 'posts.creator_id')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id')
    .leftJoin('media_files as m', (j) => j.onRef('m.post_id', '=', 'posts.id').on('m.position', '=', position).on('m.variant', '=', variant as never))
    .leftJoin('media_settings as ms', 'ms.creator_id', 'posts.creator_id')
    .select([
      'posts.id',
      'posts.updated_at',
      'ms.mark_paid_pictures',
      'ms.updated_at as settings_updated_at',
      'posts.creator_id',
      'posts.status',
      'posts.is_premium',
      'posts.unlock_price_cents',
      'posts.unlock_mode',
      'posts.title',
      'pr.username',
      'pr.display_name',
      'ps.profile_visibility',
      'm.id as file_id',
      'm.storage_key',
      'm.content_type',
      'm.byte_size',
    ])
    .where('posts.id', '=', postId)
    .executeTakeFirst();
}
