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

/** The header's row of round social icons; each opens in a new tab. */
export function SocialLinkIcons({ links, className }: { links: Profile['socialLinks']; className?: string }) {
  const items = socialLinkItems(links);
  if (items.length === 0) return null;
  return (
    <ul aria-label="Social links" className={cn('flex flex-wrap gap-2', className)}>
      {items.map(({ kind, href, display }) => {
        const { label, Icon } = SOCIAL_META[kind];
        return (
          <li key={kind}>
            <a
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`${label}: ${display}`}
              title={`${label}: ${display}`}
              className="flex size-9 items-center justify-center rounded-full border border-border bg-surface-raised text-muted transition-colors hover:border-accent/60 hover:text-foreground"
            >
              <Icon className="size-4" />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
