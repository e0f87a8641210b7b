import { enumParam, searchTextParam, searchValidator } from '../../lib/search-params';

/** The profile's tabs (spec part 1 §2): Drafts, Scheduled (issue 29) and Bookmarks are the owner's only (profileTabs). */
export const PROFILE_TABS = ['content', 'drafts', 'scheduled', 'bookmarks', 'links'] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];

/** The Content tab shows posts (feed cards) or media (image and video tiles). */
export const PROFILE_VIEWS = ['posts', 'media'] as const;
export type ProfileView = (typeof PROFILE_VIEWS)[number];

/**
 * /{username}?q=&tab=&view=: the search within the profile (a hashtag link lands here with
 * ?q=%23tag), the tab and the Content view. Anything malformed is dropped, never an error page.
 */
export interface ProfileSearch {
  q?: string;
  tab?: ProfileTab;
  view?: ProfileView;
}
export const ProfileSearch = searchValidator<ProfileSearch>({
  q: searchTextParam,
  tab: enumParam(PROFILE_TABS),
  view: enumParam(PROFILE_VIEWS),
});

/** Who looks at a profile, as far as its tabs are concerned. */
export interface ProfileTabsViewer {
  isOwner: boolean;
  /** the profile's own creator flag */
  isCreator: boolean;
}

/**
 * The tabs a viewer has, the first being the default: the owner also has Bookmarks, and a
 * creator owner Drafts; a fan's own page has no Content or Drafts (they publish nothing) and
 * opens on their bookmarks.
 */
export function profileTabs({ isOwner, isCreator }: ProfileTabsViewer): readonly ProfileTab[] {
  if (!isOwner) return ['content', 'links'];
  if (!isCreator) return ['bookmarks', 'links'];
  return PROFILE_TABS;
}

/** The tab to show: the asked one when the viewer has it, else the viewer's first. */
export function visibleTab(tab: ProfileTab | undefined, viewer: ProfileTabsViewer): ProfileTab {
  const tabs = profileTabs(viewer);
  return tab && tabs.includes(tab) ? tab : tabs[0]!;
}
