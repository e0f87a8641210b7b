import { applyPostEffects } from '../../domain/posts/effects';
import { dueScheduledPosts, publishDue } from '../../domain/posts/transitions';
import type { WorkerDeps } from '../registry';

const BATCH = 100;

/**
 * 'publish-scheduled' (repeatable, issue 29): every scheduled post due by the worker's clock is
 * published through the lifecycle (domain/posts/transitions.ts `publishDue`), and its
 * publication told like any other (post:published to open feeds, and whatever `published()`
 * sets off). Safe to run twice at once: each publication is a write conditional on the post
 * still being scheduled, so the second run finds nothing to do for it. Posts whose time passed
 * while no worker ran are due all the same, and go out on the first run after.
 */
export async function publishScheduledPosts(deps: WorkerDeps): Promise<{ published: number }> {
  const now = deps.clock.now();
  let published = 0;
  const tried = new Set<string>();
  for (;;) {
    const due = (await dueScheduledPosts(deps.db, now, BATCH)).filter((id) => !tried.has(id));
    if (due.length === 0) return { published };
    for (const postId of due) {
      tried.add(postId);
      const effects = await publishDue(deps.db, postId, now);
      if (!effects) continue;
      published += 1;
      await applyPostEffects(deps, effects);
    }
  }
}
