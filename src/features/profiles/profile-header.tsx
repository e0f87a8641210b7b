import { Link } from '@tanstack/react-router';
import { Check, Crown, MessageCircle, PencilLine, Settings2, UserPlus } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatCompactCount } from '../../../common/format';
import { PROFILE_TEXTS } from '../../../common/texts';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { buttonClasses } from '../../components/ui/button';
import { NameWithBadge } from '../../components/name-with-badge';
import type { Profile } from './profile-queries';

/**
 * The Subscribed pill that opens the viewer's subscription (features/subscriptions, given by the
 * route: features do not import each other); without it, a plain 'Subscribed'.
 */
export type RenderSubscribed = (creator: { id: string; name: string }) => ReactNode;
import { SocialLinkIcons } from './social-links';

/**
 * The /{username} header card (spec part 1 §2, §4): avatar (first letter when there is none),
 * display name, verified badge, @username, bio, categories (each opens Explore on that chip),
 * social links, subscriber and post counts, and the viewer's buttons: Subscribe or Subscribed
 * (from a real active subscription) and Message for a signed-in visitor; Manage Subscription Tier
 * and Edit Profile for the owner. Counts, Subscribe and Manage Subscription Tier are for creators'
 * pages only: a fan's page shows Message to others and Edit Profile to its owner.
 */
/** The Tip button (features/subscriptions, given by the route), on a creator's page for everyone but its owner. */
export type RenderTip = (creator: { username: string; name: string }) => ReactNode;

export function ProfileHeader({ profile, renderSubscribed, renderTip }: { profile: Profile; renderSubscribed?: RenderSubscribed; renderTip?: RenderTip }) {
  const name = profile.displayName || profile.username;
  const { viewer } = profile;

  return (
    // named by the name alone: the heading's name also carries its verified tick
    <section
      aria-label={name}
      className="overflow-hidden rounded-card border border-border bg-surface shadow-xl shadow-black/20"
    >
      <div
        aria-hidden="true"
        className="h-24 bg-[radial-gradient(ellipse_at_20%_0%,rgb(139_92_246/0.55),transparent_60%),radial-gradient(ellipse_at_90%_30%,rgb(236_72_153/0.35),transparent_55%),linear-gradient(135deg,#1b1326,#0d0d12)] md:h-32"
      />
      <div className="px-4 pb-5 md:px-6 md:pb-6">
        <div className="-mt-12 flex flex-wrap items-end justify-between gap-x-4 gap-y-3 md:-mt-14">
          <Avatar src={profile.avatarUrl} name={name} size="2xl" ring={false} className="ring-4 ring-surface" />
          <div className="flex flex-wrap items-center gap-2">
            {viewer.isOwner ? (
              <>
                {profile.isCreator ? (
                  <Link to="/create" className={buttonClasses({ variant: 'secondary' })}>
                    <Settings2 aria-hidden="true" className="size-4" />
                    {PROFILE_TEXTS.manageTier}
                  </Link>
                ) : null}
                <Link to="/settings/personal-info" className={buttonClasses({ variant: 'outline' })}>
                  <PencilLine aria-hidden="true" className="size-4" />
                  {PROFILE_TEXTS.editProfile}
                </Link>
              </>
            ) : (
              <>
                {!profile.isCreator ? null : viewer.isSubscribed && renderSubscribed ? (
                  renderSubscribed({ id: profile.id, name })
                ) : viewer.isSubscribed ? (
                  <span data-testid="subscribed" className={buttonClasses({ variant: 'secondary', className: 'cursor-default text-emerald-300' })}>
                    <Check aria-hidden="true" className="size-4" />
                    {PROFILE_TEXTS.subscribed}
                  </span>
                ) : profile.hasTier ? (
                  <Link to="/$username/subscribe" params={{ username: profile.username }} className={buttonClasses()}>
                    <UserPlus aria-hidden="true" className="size-4" />
                    {PROFILE_TEXTS.subscribe}
                  </Link>
                ) : null /* no tier: nothing to subscribe to (issue 47 item 2) */}
                {profile.isCreator && renderTip ? renderTip({ username: profile.username, name }) : null}
                {viewer.canMessage ? (
                  <Link to="/messages/$username" params={{ username: profile.username }} className={buttonClasses({ variant: 'secondary' })}>
                    <MessageCircle aria-hidden="true" className="size-4" />
                    {PROFILE_TEXTS.message}
                  </Link>
                ) : null}
              </>
            )}
          </div>
        </div>

        <div className="mt-4 flex flex-col gap-3">
          <div>
            {/* one flow of text: a wrapped name keeps its marks after its last word (issue 47) */}
            <div>
              <h1 id="profile-name" className="inline align-middle text-2xl font-bold tracking-tight break-words md:text-3xl">
                <NameWithBadge text={name} verified={profile.isVerified} />
              </h1>
              {profile.isPremium ? (
                <Badge variant="premium" className="ml-2 align-middle">
                  <Crown aria-hidden="true" className="size-3" />
                  Premium
                </Badge>
              ) : null}
            </div>
            <p className="text-subtle">@{profile.username}</p>
          </div>

          {profile.bio ? <p className="max-w-2xl leading-relaxed break-words whitespace-pre-line text-foreground/90">{profile.bio}</p> : null}

          {/* a fan has neither subscribers nor posts: no '0 subscribers' */}
          {profile.isCreator ? (
            <p className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-muted">
              <span data-testid="subscriber-count">
                <strong className="font-semibold text-foreground">{formatCompactCount(profile.subscriberCount)}</strong>{' '}
                {profile.subscriberCount === 1 ? 'subscriber' : 'subscribers'}
              </span>
              <span data-testid="post-count">
                <strong className="font-semibold text-foreground">{formatCompactCount(profile.postCount)}</strong>{' '}
                {profile.postCount === 1 ? 'post' : 'posts'}
              </span>
            </p>
          ) : null}

          {profile.categories.length > 0 || Object.keys(profile.socialLinks).length > 0 ? (
            <div className="flex flex-wrap items-center justify-between gap-3">
              {profile.categories.length > 0 ? (
                <ul aria-label="Categories" className="flex flex-wrap gap-2">
                  {profile.categories.map((category) => (
                    <li key={category}>
                      <Link
                        to="/explore"
                        search={{ categories: category }}
                        className="inline-flex h-7 items-center rounded-full border border-accent/30 bg-accent-soft px-3 text-xs font-semibold text-violet-200 transition-colors hover:border-accent/60 hover:text-white"
                      >
                        {category}
                      </Link>
                    </li>
                  ))}
                </ul>
              ) : (
                <span />
              )}
              <SocialLinkIcons links={profile.socialLinks} />
            </div>
          ) : null}
        </div>
      </div>
    </section>
  );
}
