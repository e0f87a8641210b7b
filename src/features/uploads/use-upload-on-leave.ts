import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type RefObject } from 'react';
import { holdTab } from './background-uploads';
import { dropPending, type PendingPost } from './pending-posts';
import type { PostUpload } from './tus-upload';
import type { UploadPhase } from './upload-machine';

interface LeftUpload {
  handle: Pick<PostUpload, 'pause'>;
  card: Pick<PendingPost, 'optimisticId'> | null;
}

/**
 * What becomes of an upload when its form goes. Leaving the screen stops a draft's upload or a
 * paused one (it can be resumed later; it is not deleted); a publish whose bytes are travelling
 * goes on, shown by its card in the feed. Closing or reloading the tab while bytes are on their
 * way asks first (a paused upload is safe: the same file picked again continues it). Says whether
 * the form is still there.
 */
export function useUploadOnLeave(running: RefObject<LeftUpload | null>, phase: UploadPhase): RefObject<boolean> {
  const queryClient = useQueryClient();
  const phaseNow = useRef(phase);
  phaseNow.current = phase;
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      const run = running.current;
      if (run?.card && phaseNow.current === 'uploading') {
        holdTab(run.card.optimisticId);
        return;
      }
      void run?.handle.pause();
      running.current = null;
      if (run?.card) dropPending(queryClient, run.card.optimisticId);
    };
  }, [queryClient, running]);

  useEffect(() => {
    if (phase !== 'uploading') return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [phase]);

  return mounted;
}
