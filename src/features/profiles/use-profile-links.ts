import { useCallback } from 'react';
import type { z } from 'zod';
import type { AddLinkInput, UpdateSocialLinksInput } from '../../../common/profile-schemas';
import { LINK_TEXTS } from '../../../common/texts';
import { notify } from '../../lib/toast';
import { isServerError, serverValidation, trpc } from '../../lib/trpc';
import type { Profile } from './profile-queries';

/** What the forms' schemas (the procedures' own) made of the values: checked before they are sent. */
export type NewLink = z.output<typeof AddLinkInput>;
export type SocialLinksValues = z.output<typeof UpdateSocialLinksInput>;

/** The server's own words for a refusal (a limit, a validation), or null for a failed request. */
function serverMessage(error: unknown): string | null {
  if (!isServerError(error)) return null;
  return serverValidation(error)?.messages[0] ?? (error.message || null);
}

/**
 * The owner's link edits (spec part 1 §3, §5, §8), sent once their form has checked them with the
 * server's own zod schema, and answered with the spec's toasts; the header card's cached profile takes the lists the
 * server returns, so the page shows what was stored.
 */
export function useProfileLinks(username: string) {
  const utils = trpc.useUtils();
  const add = trpc.profiles.addLink.useMutation();
  const remove = trpc.profiles.deleteLink.useMutation();
  const social = trpc.profiles.updateSocialLinks.useMutation();

  const patchProfile = useCallback(
    (patch: Partial<Profile>) => utils.profiles.byUsername.setData({ username }, (p) => (p ? { ...p, ...patch } : p)),
    [utils, username],
  );

  /** Adds a link; false (with the reason shown) when it was refused. */
  const addLink = useCallback(
    async (input: NewLink): Promise<boolean> => {
      try {
        const links = await add.mutateAsync(input);
        patchProfile({ customLinks: links });
        notify.success({ title: LINK_TEXTS.added });
        return true;
      } catch (error) {
        const message = serverMessage(error);
        notify.error({ title: LINK_TEXTS.addFailed, description: message ?? undefined });
        return false;
      }
    },
    [add, patchProfile],
  );

  /** Deletes the link at `index`, naming its URL too so a list changed elsewhere never loses the wrong one. */
  const deleteLink = useCallback(
    async (index: number, url: string): Promise<boolean> => {
      try {
        const links = await remove.mutateAsync({ index, url });
        patchProfile({ customLinks: links });
        notify.success({ title: LINK_TEXTS.deleted });
        return true;
      } catch (error) {
        const message = serverMessage(error);
        notify.error({ title: LINK_TEXTS.deleteFailed, description: message ?? undefined });
        void utils.profiles.byUsername.invalidate({ username });
        return false;
      }
    },
    [remove, patchProfile, utils, username],
  );

  /** Saves all four social links ('' removes one); the server's refusal, for the fields' messages, or null when saved. */
  const updateSocialLinks = useCallback(
    async (values: SocialLinksValues): Promise<{ refused: unknown } | null> => {
      try {
        const links = await social.mutateAsync(values);
        patchProfile({ socialLinks: links });
        notify.success({ title: LINK_TEXTS.socialUpdated });
        return null;
      } catch (error) {
        notify.error(LINK_TEXTS.socialUpdateFailed);
        return { refused: error };
      }
    },
    [social, patchProfile],
  );

  return { addLink, adding: add.isPending, deleteLink, updateSocialLinks, savingSocial: social.isPending };
}
