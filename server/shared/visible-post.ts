import { TRPCError } from '@trpc/server';
import { POST_TEXTS } from '../../common/texts';
import type { DB } from '../../core/db/kysely';
import { loadPostAccess, type LoadedPostAccess } from '../../domain/access/access';

export const postNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: POST_TEXTS.notFound });

/**
 * A visible post for `viewerId`, or NOT_FOUND 'Post not found' (for an unknown id and an
 * invisible post alike: a stranger's draft or a private creator's post is not admitted to exist).
 */
export async function requireVisiblePost(db: DB, viewerId: string | null, postId: string, opts = { media: false }): Promise<LoadedPostAccess> {
  const access = await loadPostAccess(db, viewerId, postId, opts);
  if (!access?.visible) throw postNotFound();
  return access;
}
