import { Link } from '@tanstack/react-router';
import { Bookmark, CalendarClock, FilePen, LayoutGrid, Link2, ShoppingBag } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { FEED_TEXTS, PROFILE_TEXTS } from '../../../common/texts';
import { FirstStepsChecklist } from '../../components/first-steps-checklist';
import { PostCardSkeleton } from '../../components/post-card-skeleton';
import { buttonClasses } from '../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { usePageTitle } from '../../lib/page-title';
import type { Post } from '../../lib/post-cache';
import { errorCode, trpc } from '../../lib/trpc';
import { BookmarksTab } from './bookmarks-tab';
import { ContentTab } from './content-tab';
import { DraftsTab } from './drafts-tab';
import { ScheduledTab } from './scheduled-tab';
import { BecomeCreatorCard, SubscribeNowCard, UpgradeCard } from './profile-cards';
import { ProfileHeader, type RenderSubscribed, type RenderTip } from './profile-header';
import { profileQueryOptions, type Profile } from './profile-queries';
import { profileTabs, visibleTab, type ProfileSearch, type ProfileTab } from './profile-search';
import { ProfileHeaderSkeleton, ProfileMessage } from './profile-states';

/**
 * The Links tab loads when it is opened: its editor's schemas (zod) and form were built with the
 * page, a long task of a profile's start on a slow phone (issue 30: total blocking time).
 */
const LinksTab = lazy(() => import('./links-tab').then((m) => ({ default: m.LinksTab })));

interface ProfilePageProps {
  username: string;
  search: ProfileSearch;
  /** changes the URL's search (tab, view, q); `undefined` removes a key */
  onSearchChange: (patch: Partial<ProfileSearch>) => void;
  renderPost: (post: Post) => ReactNode;
  renderTile: (post: Post) => ReactNode;
  /** the Subscribed pill that opens the viewer's subscription */
  renderSubscribed?: RenderSubscribed;
  renderTip?: RenderTip;
}

/**
 * The creator profile /{username} (spec part 1 §2, §4, §6): the header card, the Subscribe Now
 * card or (owner, not premium) the upgrade card, and the tabs. A fan's page has none of the
 * creator things: its owner is offered to become a creator and sees their bookmarks. A private or hidden profile, or an
 * unknown one, is 'Profile not found - The profile you're looking for doesn't exist or is private.'
 * Post cards come from the route (`renderPost`, `renderTile`): features do not import each other.
 */
export function ProfilePage({ username, search, onSearchChange, renderPost, renderTile, renderSubscribed, renderTip }: ProfilePageProps) {
  const profile = trpc.profiles.byUsername.useQuery({ username }, profileQueryOptions);
  const notFound = errorCode(profile.error) === 'NOT_FOUND';
  usePageTitle(notFound ? PROFILE_TEXTS.notFound.title : profile.data ? profile.data.displayName || profile.data.username : null);

  if (notFound) {
    return <ProfileMessage title={PROFILE_TEXTS.notFound.title} description={PROFILE_TEXTS.notFound.description} />;
  }
  if (profile.isError && !profile.data) {
    return <ProfileMessage title={FEED_TEXTS.loadError} description={profile.error.message} retry={() => void profile.refetch()} />;
  }
  if (!profile.data) {
    return (
      <div className="flex flex-col gap-6">
        <ProfileHeaderSkeleton />
        <PostCardSkeleton />
      </div>
    );
  }
  return (
    <LoadedProfile
      profile={profile.data}
      search={search}
      onSearchChange={onSearchChange}
      renderPost={renderPost}
      renderTile={renderTile}
      renderSubscribed={renderSubscribed}
      renderTip={renderTip}
    />
  );
}

function LoadedProfile({
  profile,
  search,
  onSearchChange,
  renderPost,
  renderTile,
  renderSubscribed,
  renderTip,
}: Omit<ProfilePageProps, 'username'> & { profile: Profile }) {
  const { isOwner, isSubscribed } = profile.viewer;
  const isCreator = profile.isCreator;
  const tabs = profileTabs({ isOwner, isCreator });
  const has = (t: ProfileTab) => tabs.includes(t);
  const tab = visibleTab(search.tab, { isOwner, isCreator });
  // the viewer's first tab is the page's plain address
  const selectTab = (next: ProfileTab) => onSearchChange({ tab: next === tabs[0] ? undefined : next });

  return (
    <div className="flex flex-col gap-6">
      <ProfileHeader profile={profile} renderSubscribed={renderSubscribed} renderTip={renderTip} />
      {/* subscribing, premium and creator tools are for creators' pages; a fan is offered to become one */}
      {/* no Subscribe Now without a tier to subscribe to (issue 47 item 2): its owner is guided to one instead */}
      {isCreator && !isOwner && !isSubscribed && profile.hasTier ? <SubscribeNowCard profile={profile} /> : null}
      {isCreator && isOwner && !profile.hasTier ? <FirstStepsChecklist /> : null}
      {isCreator && isOwner && profile.showUpgradeCard ? <UpgradeCard profile={profile} /> : null}
      {!isCreator && isOwner ? <BecomeCreatorCard /> : null}
      {/* the owner's own purchases (issue 47 item 8): a route of its own, loaded when opened */}
      {isOwner ? (
        <Link to="/$username/purchased" params={{ username: profile.username }} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'self-start' })}>
          <ShoppingBag aria-hidden="true" className="size-4" />
          Purchased
        </Link>
      ) : null}

      <Tabs value={tab} onValueChange={(value) => selectTab(value as ProfileTab)}>
        <TabsList aria-label="Profile sections" className="overflow-x-auto [scrollbar-width:none] max-sm:flex">
          {has('content') ? (
            <Trigger value="content" icon={<LayoutGrid aria-hidden="true" className="size-4" />}>
              {PROFILE_TEXTS.tabContent}
            </Trigger>
          ) : null}
          {has('drafts') ? (
            <Trigger value="drafts" icon={<FilePen aria-hidden="true" className="size-4" />}>
              {PROFILE_TEXTS.tabDrafts(profile.draftCount ?? 0)}
            </Trigger>
          ) : null}
          {has('scheduled') ? (
            <Trigger value="scheduled" icon={<CalendarClock aria-hidden="true" className="size-4" />}>
              Scheduled
            </Trigger>
          ) : null}
          {has('bookmarks') ? (
            <Trigger value="bookmarks" icon={<Bookmark aria-hidden="true" className="size-4" />}>
              {PROFILE_TEXTS.tabBookmarks}
            </Trigger>
          ) : null}
          <Trigger value="links" icon={<Link2 aria-hidden="true" className="size-4" />}>
            {PROFILE_TEXTS.tabLinks}
          </Trigger>
        </TabsList>

        {has('content') ? (
          <TabsContent value="content">
            <ContentTab
              profile={profile}
              q={search.q}
              view={search.view ?? 'posts'}
              onSearch={(q) => onSearchChange({ q: q || undefined })}
              onViewChange={(view) => onSearchChange({ view: view === 'posts' ? undefined : view })}
              renderPost={renderPost}
              renderTile={renderTile}
            />
          </TabsContent>
        ) : null}
        {has('drafts') ? (
          <TabsContent value="drafts">
            <DraftsTab username={profile.username} onPublished={() => selectTab('content')} renderTile={renderTile} />
          </TabsContent>
        ) : null}
        {has('scheduled') ? (
          <TabsContent value="scheduled">
            <ScheduledTab username={profile.username} onPublished={() => selectTab('content')} renderTile={renderTile} />
          </TabsContent>
        ) : null}
        {has('bookmarks') ? (
          <TabsContent value="bookmarks">
            <BookmarksTab renderPost={renderPost} />
          </TabsContent>
        ) : null}
        <TabsContent value="links">
          <Suspense fallback={null}>
            <LinksTab profile={profile} />
          </Suspense>
        </TabsContent>
      </Tabs>
    </div>
  );
}

function Trigger({ value, icon, children }: { value: ProfileTab; icon: ReactNode; children: ReactNode }) {
  return (
    <TabsTrigger value={value} className="inline-flex min-w-max items-center justify-center gap-2 max-sm:flex-1 max-sm:px-2 max-sm:text-[13px]">
      <span className="hidden sm:inline-flex">{icon}</span>
      {children}
    </TabsTrigger>
  );
}
