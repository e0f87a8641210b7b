import type { DB } from '../../core/db/kysely';

/**
 * Whether a creator's posts take comments (Content Settings, /settings/content): open unless
 * the creator turned them off. The creator may always answer on their own posts. Asked by the
 * comments service on every new comment, so a change applies at once.
 */
export async function commentsOpenFor(db: DB, creatorId: string, commenterId: string): Promise<boolean> {
  if (creatorId === commenterId) return true;
  const row = await db.selectFrom('content_settings').select('comments_open').where('user_id', '=', creatorId).executeTakeFirst();
  return row?.comments_open ?? true;
}
