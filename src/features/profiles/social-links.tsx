import { Globe } from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { socialLinkHref, SOCIAL_KINDS, type SocialKind } from '../../../common/links';
import { InstagramIcon, XIcon, YouTubeIcon } from '../../components/social-icons';
import { cn } from '../../lib/cn';
import type { Profile } from './profile-queries';

type IconType = ComponentType<SVGProps<SVGSVGElement> & { className?: string }>;

export const SOCIAL_META: Record<SocialKind, { label: string; Icon: IconType }> = {
  twitter: { label: 'Twitter', Icon: XIcon },
  instagram: { label: 'Instagram', Icon: InstagramIcon },
  youtube: { label: 'YouTube', Icon: YouTubeIcon },
  website: { label: 'Website', Icon: Globe as IconType },
};

export interface SocialLinkItem {
  kind: SocialKind;
  href: string;
  /** what the link shows: @name for usernames, the address without its scheme otherwise */
  display: string;
}

/** The profile's social links that open somewhere, in a fixed order, with their addresses (spec part 1 §5). */
export function socialLinkItems(links: Profile['socialLinks']): SocialLinkItem[] {
  return SOCIAL_KINDS.flatMap((kind) => {
    const value = links[kind];
    const href = socialLinkHref(kind, value);
    if (!value || !href) return [];
    const display = kind === 'twitter' || kind === 'instagram' ? `@${value.replace(/^@/, '')}` : href.replace(/^https?:\/\//i, '').replace(/\/$/, '');
    return [{ kind, href, display }];
  });
}

const LOOKS = {
  icons: {
    listLabel: 'Social links',
    list: 'flex flex-wrap gap-2',
    link: 'flex size-9 items-center justify-center rounded-full border border-border bg-surface-raised text-muted transition-colors hover:border-accent/60 hover:text-foreground',
  },
  cards: {
    listLabel: 'Social profiles',
    list: 'grid gap-2 sm:grid-cols-2',
    link: 'flex min-w-0 items-center gap-3 rounded-xl border border-border bg-surface px-4 py-3 transition-colors hover:border-accent/50 hover:bg-surface-raised',
  },
};

/**
 * A profile's social links, each opening in a new tab: round icons that say what they are in
 * their label (the header), or cards that show the name or address (the Links tab).
 */
export function SocialLinkList({ items, look, className }: { items: SocialLinkItem[]; look: keyof typeof LOOKS; className?: string }) {
  const { listLabel, list, link } = LOOKS[look];
  return (
    <ul aria-label={listLabel} className={cn(list, className)}>
      {items.map(({ kind, href, display }) => {
        const { label, Icon } = SOCIAL_META[kind];
        // a card shows its words; an icon alone is named
        const name = look === 'icons' ? `${label}: ${display}` : undefined;
        return (
          <li key={kind}>
            <a href={href} target="_blank" rel="noopener noreferrer" aria-label={name} title={name} className={link}>
              {look === 'icons' ? (
                <Icon className="size-4" />
              ) : (
                <>
                  <Icon className="size-4 shrink-0 text-muted" />
                  <span className="flex min-w-0 flex-col">
                    <span className="text-xs text-subtle">{label}</span>
                    <span className="truncate text-sm font-medium text-foreground">{display}</span>
                  </span>
                </>
              )}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/** The header's row of round social icons; nothing without links. */
export function SocialLinkIcons({ links, className }: { links: Profile['socialLinks']; className?: string }) {
  const items = socialLinkItems(links);
  if (items.length === 0) return null;
  return <SocialLinkList items={items} look="icons" className={className} />;
}
