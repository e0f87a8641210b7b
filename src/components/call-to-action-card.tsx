import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

/**
 * The lit panel that asks for one step: become a creator, join after the visitor's free posts, go
 * Premium, pay for the plan. Violet is the app's own call; Premium is amber, a shade quieter in
 * the plan box on the payment screen, where it stands among settings.
 */
const SURFACES = {
  violet: 'border-accent/30 bg-[radial-gradient(ellipse_at_top,rgb(139_92_246/0.28),transparent_65%),var(--color-surface)]',
  premium:
    'border-amber-400/25 bg-[radial-gradient(ellipse_at_top_right,rgb(236_72_153/0.2),transparent_55%),radial-gradient(ellipse_at_bottom_left,rgb(139_92_246/0.22),transparent_60%),var(--color-surface)]',
  'premium-quiet':
    'border-amber-400/25 bg-[radial-gradient(ellipse_at_top_right,rgb(236_72_153/0.18),transparent_55%),radial-gradient(ellipse_at_bottom_left,rgb(139_92_246/0.2),transparent_60%),var(--color-surface)]',
};

const BADGES = {
  violet: 'bg-accent-soft text-violet-200 ring-1 ring-accent/40',
  premium: 'bg-amber-400/15 text-amber-300 ring-1 ring-amber-300/30',
};

/** The card, named by its heading (`headingId`); `className` sets its padding and alignment. */
export function CallToActionCard({
  as: Element = 'section',
  headingId,
  tone,
  className,
  children,
}: {
  as?: 'section' | 'aside';
  headingId: string;
  tone: keyof typeof SURFACES;
  className: string;
  children: ReactNode;
}) {
  return (
    <Element aria-labelledby={headingId} className={cn('relative overflow-hidden rounded-card border', SURFACES[tone], className)}>
      {children}
    </Element>
  );
}

/** The round icon at the head of the card; `className` sets its size and place. */
export function CallToActionBadge({ tone, className, children }: { tone: keyof typeof BADGES; className: string; children: ReactNode }) {
  return <span className={cn('flex items-center justify-center rounded-full', BADGES[tone], className)}>{children}</span>;
}
