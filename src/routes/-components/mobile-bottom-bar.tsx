import { Link, useLocation } from '@tanstack/react-router';
import { Compass, House, LogIn, MessageCircle, SquarePlus, UserRound, type LucideIcon } from 'lucide-react';
import type { MouseEvent } from 'react';
import { useUnreadCount } from '../../features/messages/use-unread-count';
import type { CurrentUser } from '../../lib/trpc';
import { SessionSlot, UnreadBadge } from './top-bar';

const item =
  'relative flex h-full flex-1 flex-col items-center justify-center gap-1 text-[11px] font-medium text-subtle ' +
  'transition-colors hover:text-foreground data-[status=active]:text-foreground';

/** Below 768 px (spec part 1 §2). Hidden on conversation pages (/messages/{username}). */
export function MobileBottomBar({ user, sessionPending = false }: { user: CurrentUser | null; sessionPending?: boolean }) {
  const { pathname } = useLocation();
  const unread = useUnreadCount(!!user);

  if (/^\/messages\/[^/]+/.test(pathname)) return null;

  // Home on / reloads the page (a fresh feed); elsewhere it navigates.
  const onHome = (event: MouseEvent<HTMLAnchorElement>) => {
    if (pathname !== '/') return;
    event.preventDefault();
    window.location.reload();
  };

  const icon = (Icon: LucideIcon) => <Icon aria-hidden="true" className="size-5" />;

  return (
    <nav
      aria-label="Mobile"
      className="pb-safe fixed inset-x-0 bottom-0 z-40 border-t border-border bg-canvas/90 backdrop-blur-xl md:hidden"
    >
      <div className="flex h-16 items-stretch">
        <Link to="/" onClick={onHome} className={item} activeOptions={{ exact: true }}>
          {icon(House)}
          Home
        </Link>
        <Link to="/explore" className={item}>
          {icon(Compass)}
          Explore
        </Link>
        {user ? (
          <>
            <Link to="/create" className={item}>
              {icon(SquarePlus)}
              Create
            </Link>
            <Link to="/messages" className={item}>
              {icon(MessageCircle)}
              Messages
              <UnreadBadge label={unread.label} className="absolute top-1.5 left-1/2 ml-1.5" />
            </Link>
            <Link to="/$username" params={{ username: user.username }} className={item}>
              {icon(UserRound)}
              Profile
            </Link>
          </>
        ) : sessionPending ? (
          <div className="flex flex-[3] items-center justify-center px-4">
            <SessionSlot className="h-8 w-full" />
          </div>
        ) : (
          <Link to="/auth" search={{ tab: 'signin' }} className={item}>
            {icon(LogIn)}
            Sign In
          </Link>
        )}
      </div>
    </nav>
  );
}
