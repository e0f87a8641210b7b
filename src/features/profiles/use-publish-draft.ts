import { useCallback, useState } from 'react';
import { PROFILE_TEXTS } from '../../../common/texts';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { DRAFTS_INPUT } from './profile-queries';

/**
 * Publish (spec part 1 §4): the draft becomes a published post (the server checks it is the
 * caller's), 'Content published successfully', the draft leaves the list at once and the drafts,
 * the Content tab and the header counts are read again; then `onPublished` (the Content tab is
 * selected). A failure says 'Failed to publish content'. `pendingId` is the draft being published.
 */
export function usePublishDraft(username: string, onPublished: () => void) {
  const utils = trpc.useUtils();
  const publish = trpc.profiles.publishDraft.useMutation();
  const [pendingId, setPendingId] = useState<string | null>(null);

  const run = useCallback(
    async (postId: string) => {
      setPendingId(postId);
      try {
        await publish.mutateAsync({ postId });
        utils.profiles.drafts.setInfiniteData(DRAFTS_INPUT, (data) =>
          data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((p) => p.id !== postId) })) } : data,
        );
        notify.success({ title: PROFILE_TEXTS.published });
        await Promise.all([
          utils.profiles.drafts.invalidate(),
          utils.profiles.posts.invalidate({ username }),
          utils.profiles.byUsername.invalidate({ username }),
        ]);
        onPublished();
      } catch (error) {
        console.error('Could not publish the draft', error);
        notify.error({ title: PROFILE_TEXTS.publishFailed });
      } finally {
        setPendingId(null);
      }
    },
    [publish, utils, username, onPublished],
  );

  return { publish: run, pendingId };
}
