import { z } from 'zod';
import { searchTextParam } from '../../lib/search-params';

/** The profile's tabs (spec part 1 §2): Drafts and Bookmarks are the owner's only. */
export const PROFILE_TABS = ['content', 'drafts', 'bookmarks', 'links'] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];

/** The Content tab shows posts (feed cards) or media (image and video tiles). */
export const PROFILE_VIEWS = ['posts', 'media'] as const;
export type ProfileView = (typeof PROFILE_VIEWS)[number];

/**
 * /{username}?q=&tab=&view=: the search within the profile (a hashtag link lands here with
 * ?q=%23tag), the tab and the Content view. Anything malformed is dropped, never an error page.
 */
export const ProfileSearch = z.object({
  q: searchTextParam,
  tab: z.enum(PROFILE_TABS).optional().catch(undefined),
  view: z.enum(PROFILE_VIEWS).optional().catch(undefined),
});
export type ProfileSearch = z.infer<typeof ProfileSearch>;

/** The tab to show: the asked one when the viewer may see it, else Content. */
export function visibleTab(tab: ProfileTab | undefined, isOwner: boolean): ProfileTab {
  if (!tab) return 'content';
  if ((tab === 'drafts' || tab === 'bookmarks') && !isOwner) return 'content';
  return tab;
}
