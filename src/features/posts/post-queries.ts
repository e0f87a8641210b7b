import { CACHE } from '../../../common/limits';

/** The single post's cache times (spec part 1 §9: fresh 5 minutes, kept 30 minutes), for the loader and the page alike. */
export const postQueryOptions = {
  staleTime: CACHE.post.staleTime,
  gcTime: CACHE.post.gcTime,
};
