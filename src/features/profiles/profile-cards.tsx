import { Link } from '@tanstack/react-router';
import { Check, Crown, Sparkles, X } from 'lucide-react';
import { formatRand } from '../../../common/format';
import { LIMITS } from '../../../common/limits';
import { CREATE_TEXTS, CREATOR_TEXTS, PROFILE_TEXTS } from '../../../common/texts';
import { buttonClasses } from '../../components/ui/button';
import { laterRoute } from '../../lib/later-route';
import { CREATE_PATH, PREMIUM_UPGRADE_PATH, subscribePath } from '../../lib/paths';
import { trpc } from '../../lib/trpc';
import type { Profile } from './profile-queries';

/** The Subscribe Now card (spec part 1 §2), for a viewer who is neither the owner nor subscribed. */
export function SubscribeNowCard({ profile }: { profile: Profile }) {
  const name = profile.displayName || profile.username;
  return (
    <aside
      aria-labelledby="subscribe-now-heading"
      className="relative flex flex-col gap-4 overflow-hidden rounded-card border border-accent/30 bg-[radial-gradient(ellipse_at_top_left,rgb(139_92_246/0.25),transparent_60%),var(--color-surface)] p-5 sm:flex-row sm:items-center md:p-6"
    >
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-amber-400/15 text-amber-300 ring-1 ring-amber-300/30">
        <Crown aria-hidden="true" className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <h2 id="subscribe-now-heading" className="font-semibold text-foreground">
          Get {name}’s premium content
        </h2>
        <p className="mt-1 text-sm text-muted">Subscribe to unlock premium posts and support {name} directly.</p>
      </div>
      <Link to={laterRoute(subscribePath(profile.username))} className={buttonClasses({ className: 'shrink-0' })}>
        {PROFILE_TEXTS.subscribeNow}
      </Link>
    </aside>
  );
}

/** A fan's own page: the way to becoming a creator (/create), where the creator tools would be. */
export function BecomeCreatorCard() {
  return (
    <aside
      aria-labelledby="become-creator-heading"
      className="relative flex flex-col gap-4 overflow-hidden rounded-card border border-accent/30 bg-[radial-gradient(ellipse_at_top_left,rgb(139_92_246/0.25),transparent_60%),var(--color-surface)] p-5 sm:flex-row sm:items-center md:p-6"
    >
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-accent-soft text-violet-200 ring-1 ring-accent/40">
        <Sparkles aria-hidden="true" className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <h2 id="become-creator-heading" className="font-semibold text-foreground">
          {CREATOR_TEXTS.becomeTitle}
        </h2>
        <p className="mt-1 text-sm text-muted">{CREATE_TEXTS.becomeIntro}</p>
      </div>
      <Link to={laterRoute(CREATE_PATH)} className={buttonClasses({ className: 'shrink-0' })}>
        {CREATOR_TEXTS.becomeButton}
      </Link>
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
      <Link to={laterRoute(PREMIUM_UPGRADE_PATH)} className={buttonClasses({ size: 'sm', className: 'mt-4' })}>
        <Crown aria-hidden="true" className="size-4" />
        Upgrade to Premium
      </Link>
    </aside>
  );
}
