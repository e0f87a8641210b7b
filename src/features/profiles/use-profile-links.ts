import { useCallback } from 'react';
import { AddLinkInput, UpdateSocialLinksInput } from '../../../common/profile-schemas';
import { LINK_TEXTS } from '../../../common/texts';
import { firstErrorPerField, type FieldErrors } from '../../lib/form-errors';
import { notify } from '../../lib/toast';
import { isServerError, serverValidation, trpc } from '../../lib/trpc';
import type { Profile } from './profile-queries';

export type SocialLinksValues = { twitter: string; instagram: string; youtube: string; website: string };

/** The server's own words for a refusal (a limit, a validation), or null for a failed request. */
function serverMessage(error: unknown): string | null {
  if (!isServerError(error)) return null;
  return serverValidation(error)?.messages[0] ?? (error.message || null);
}

/**
 * The owner's link edits (spec part 1 §3, §5, §8), each checked with the server's own zod schema
 * first and answered with the spec's toasts; the header card's cached profile takes the lists the
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

  /** Adds a link; false (with the reason shown) when it was refused. Empty fields: 'Please fill in both title and URL fields'. */
  const addLink = useCallback(
    async (input: { title: string; url: string }): Promise<{ ok: boolean; fields: FieldErrors<'title' | 'url'> }> => {
      const parsed = AddLinkInput.safeParse(input);
      if (!parsed.success) {
        const { fields, messages } = firstErrorPerField(parsed.error);
        notify.error({ title: messages[0] ?? LINK_TEXTS.fieldsRequired });
        return { ok: false, fields };
      }
      try {
        const links = await add.mutateAsync(input);
        patchProfile({ customLinks: links });
        notify.success({ title: LINK_TEXTS.added });
        return { ok: true, fields: {} };
      } catch (error) {
        const message = serverMessage(error);
        notify.error({ title: LINK_TEXTS.addFailed, description: message ?? undefined });
        return { ok: false, fields: {} };
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

  /** Saves all four social links ('' removes one); the fields' own messages when a value is not valid. */
  const updateSocialLinks = useCallback(
    async (values: SocialLinksValues): Promise<{ ok: boolean; fields: FieldErrors<keyof SocialLinksValues> }> => {
      const parsed = UpdateSocialLinksInput.safeParse(values);
      if (!parsed.success) return { ok: false, fields: firstErrorPerField(parsed.error).fields };
      try {
        const links = await social.mutateAsync(values);
        patchProfile({ socialLinks: links });
        notify.success({ title: LINK_TEXTS.socialUpdated });
        return { ok: true, fields: {} };
      } catch (error) {
        const fieldErrors = serverValidation(error)?.fieldErrors;
        notify.error(LINK_TEXTS.socialUpdateFailed);
        const fields: FieldErrors<keyof SocialLinksValues> = {};
        for (const key of ['twitter', 'instagram', 'youtube', 'website'] as const) {
          const message = fieldErrors?.[key]?.[0];
          if (message) fields[key] = message;
        }
        return { ok: false, fields };
      }
    },
    [social, patchProfile],
  );

  return { addLink, adding: add.isPending, deleteLink, updateSocialLinks, savingSocial: social.isPending };
}
