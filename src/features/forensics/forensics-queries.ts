import { CACHE } from '../../../common/limits';
import type { LeakTraceDto } from '../../../common/forensics';

/** How often a log with a trace still waiting or running is asked again (no socket event tells of a verdict). */
export const PENDING_POLL_MS = 2_000;

const isPending = (trace: LeakTraceDto) => trace.status === 'queued' || trace.status === 'running';

/**
 * forensics.traces and forensics.recent, for the route's loader and the screen alike: fresh at
 * once (a verdict may have come since), asked again every PENDING_POLL_MS while any trace of the
 * list is unanswered, and left alone once all are.
 */
export const tracesOptions = {
  staleTime: 0,
  refetchInterval: (query: { state: { data?: LeakTraceDto[] } }) => (query.state.data?.some(isPending) ? PENDING_POLL_MS : false),
} as const;

/** The traced post, with the post page's cache times (common/limits.ts), so the two screens share its answer. */
export const tracedPostOptions = { staleTime: CACHE.post.staleTime, gcTime: CACHE.post.gcTime };
