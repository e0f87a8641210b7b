import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from '@tanstack/react-router';
import type { MouseEvent } from 'react';
import { BRAND, SHELL_TEXTS } from '../../../common/texts';
import { clearFeedCache } from '../../features/feed/feed-cache';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

export function BrandMark({ small = false }: { small?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex items-center justify-center rounded-lg bg-gradient-accent text-sm font-black text-white shadow-lg shadow-accent/30',
        small ? 'size-7' : 'size-8',
      )}
    >
      {BRAND.name[0]}
    </span>
  );
}

/** The brand link to /. Pressed while already on /, it clears the cached feed instead (spec part 1 §2). */
export function BrandLink() {
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (pathname !== '/') return;
    event.preventDefault();
    clearFeedCache(queryClient);
    void utils.creators.featured.invalidate();
    window.scrollTo({ top: 0, behavior: 'smooth' });
    notify.success(SHELL_TEXTS.feedRefreshed);
  };

  return (
    <Link
      to="/"
      onClick={onClick}
      className="flex items-center gap-2.5 rounded-lg text-lg font-bold tracking-tight text-foreground"
    >
      <BrandMark />
      <span>{BRAND.name}</span>
    </Link>
  );
}
