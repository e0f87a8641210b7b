import { CACHE } from '../../../common/limits';

/**
 * A post's comments are read with the post (loader and section alike) and kept current by the
 * socket (`post:comment`), so they share the post's cache times.
 */
export const commentsQueryOptions = {
  staleTime: CACHE.post.staleTime,
  gcTime: CACHE.post.gcTime,
};
