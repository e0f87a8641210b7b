import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from './listeners';

/**
 * Mount once (in the app shell). When the server says live events may have been lost (`resync`:
 * its Redis connection came back after an outage), every query this tab shows is read again and
 * the rest is marked stale, as a reload would; the messages screens also catch up on messages
 * (use-live-messages.ts). Rare: only after an outage.
 */
export function useResyncOnRequest(): void {
  const queryClient = useQueryClient();
  useRealtimeEvent('resync', () => {
    void queryClient.invalidateQueries();
  });
}
