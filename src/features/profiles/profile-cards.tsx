import { Link } from '@tanstack/react-router';
import { Check, Crown, Sparkles, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatRand } from '../../../common/format';
import { LIMITS } from '../../../common/limits';
import { CREATE_TEXTS, CREATOR_TEXTS, PROFILE_TEXTS } from '../../../common/texts';
import { buttonClasses } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { trpc } from '../../lib/trpc';
import type { Profile } from './profile-queries';

/** The Subscribe Now card (spec part 1 §2), for a viewer who is neither the owner nor subscribed. */
export function SubscribeNowCard({ profile }: { profile: Profile }) {
  const name = profile.displayName || profile.username;
  return (
    <InviteCard
      headingId="subscribe-now-heading"
      icon={<Crown aria-hidden="true" className="size-5" />}
      iconClassName="bg-amber-400/15 text-amber-300 ring-amber-300/30"
      title={`Get ${name}’s premium content`}
      text={`Subscribe to unlock premium posts and support ${name} directly.`}
    >
      <Link to="/$username/subscribe" params={{ username: profile.username }} className={INVITE_ACTION}>
        {PROFILE_TEXTS.subscribeNow}
      </Link>
    </InviteCard>
  );
}

/** A fan's own page: the way to becoming a creator (/create), where the creator tools would be. */
export function BecomeCreatorCard() {
  return (
    <InviteCard
      headingId="become-creator-heading"
      icon={<Sparkles aria-hidden="true" className="size-5" />}
      iconClassName="bg-accent-soft text-violet-200 ring-accent/40"
      title={CREATOR_TEXTS.becomeTitle}
      text={CREATE_TEXTS.becomeIntro}
    >
      <Link to="/create" className={INVITE_ACTION}>
        {CREATOR_TEXTS.becomeButton}
      </Link>
    </InviteCard>
  );
}

const INVITE_ACTION = buttonClasses({ className: 'shrink-0' });

/** A profile card inviting one step: an icon, a heading and a line, and the link that takes it (`children`). */
function InviteCard(props: { headingId: string; icon: ReactNode; iconClassName: string; title: string; text: string; children: ReactNode }) {
  return (
    <aside
      aria-labelledby={props.headingId}
      className="relative flex flex-col gap-4 overflow-hidden rounded-card border border-accent/30 bg-[radial-gradient(ellipse_at_top_left,rgb(139_92_246/0.25),transparent_60%),var(--color-surface)] p-5 sm:flex-row sm:items-center md:p-6"
    >
      <span className={cn('flex size-11 shrink-0 items-center justify-center rounded-full ring-1', props.iconClassName)}>{props.icon}</span>
      <div className="min-w-0 flex-1">
        <h2 id={props.headingId} className="font-semibold text-foreground">
          {props.title}
        </h2>
        <p className="mt-1 text-sm text-muted">{props.text}</p>
      </div>
      {props.children}
    </aside>
  );
}

/**
 * The creator owner's upgrade card when they are not premium (spec part 1 §2): unlimited links, verified
 * badge, featured listing on the homepage. Dismissing it hides it at once and for good (the
 * server remembers); if that fails it comes back.
 */
export function UpgradeCard({ profile }: { profile: Profile }) {
  const utils = trpc.useUtils();
  const dismiss = trpc.profiles.dismissUpgradeCard.useMutation();
  const key = { username: profile.username };

  const onDismiss = async () => {
    await utils.profiles.byUsername.cancel(key);
    utils.profiles.byUsername.setData(key, (p) => (p ? { ...p, showUpgradeCard: false } : p));
    try {
      await dismiss.mutateAsync();
    } catch (error) {
      console.error('Could not dismiss the upgrade card', error);
      utils.profiles.byUsername.setData(key, (p) => (p ? { ...p, showUpgradeCard: true } : p));
    }
  };

  return (
    <aside
      aria-labelledby="upgrade-heading"
      className="relative overflow-hidden rounded-card border border-amber-400/25 bg-[radial-gradient(ellipse_at_top_right,rgb(236_72_153/0.2),transparent_55%),radial-gradient(ellipse_at_bottom_left,rgb(139_92_246/0.22),transparent_60%),var(--color-surface)] p-5 md:p-6"
    >
      <button
        type="button"
        onClick={() => void onDismiss()}
        aria-label="Dismiss upgrade card"
        title="Dismiss"
        className="absolute top-3 right-3 flex size-8 items-center justify-center rounded-full text-muted transition-colors hover:bg-surface-hover hover:text-foreground"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
      <div className="flex items-center gap-2 pr-8">
        <Sparkles aria-hidden="true" className="size-5 text-amber-300" />
        <h2 id="upgrade-heading" className="font-semibold text-foreground">
          Upgrade to Premium
        </h2>
      </div>
      <p className="mt-1 text-sm text-muted">
        {formatRand(LIMITS.premiumPriceRand)} per month. Everything your page needs to stand out:
      </p>
      <ul className="mt-3 grid gap-2 text-sm sm:grid-cols-3">
        {PROFILE_TEXTS.upgradeCardPerks.map((perk) => (
          <li key={perk} className="flex items-center gap-2 text-foreground/90">
            <Check aria-hidden="true" className="size-4 shrink-0 text-emerald-400" />
            <span className="inline-block first-letter:uppercase">{perk}</span>
          </li>
        ))}
      </ul>
      <Link to="/subscribe" className={buttonClasses({ size: 'sm', className: 'mt-4' })}>
        <Crown aria-hidden="true" className="size-4" />
        Upgrade to Premium
      </Link>
    </aside>
  );
}
