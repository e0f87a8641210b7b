import { Link } from '@tanstack/react-router';
import { ChevronRight, type LucideIcon } from 'lucide-react';
import type { FileRoutesByTo } from '../../routeTree.gen';

/** A settings screen's path: the router knows each one, so a link to a missing screen does not compile. */
export type SettingsPath = Extract<keyof FileRoutesByTo, `/settings${string}`>;

export interface SettingsMenuItem {
  label: string;
  description: string;
  to: SettingsPath;
  icon: LucideIcon;
}

/** A list of settings screens: each row a link with an icon, a line of what it holds, and a chevron. */
export function SettingsMenu({ label, items }: { label: string; items: readonly SettingsMenuItem[] }) {
  return (
    <nav aria-label={label}>
      <ul className="divide-y divide-border overflow-hidden rounded-card border border-border bg-surface">
        {items.map((item) => (
          <li key={item.to}>
            <Link
              to={item.to}
              className="flex min-h-16 items-center gap-4 px-4 py-3 transition-colors hover:bg-surface-raised focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
            >
              <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-accent-soft text-violet-300">
                <item.icon aria-hidden="true" className="size-5" />
              </span>
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="font-medium text-foreground">{item.label}</span>
                <span className="text-sm text-muted">{item.description}</span>
              </span>
              <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-subtle" />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
