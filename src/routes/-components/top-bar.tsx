import { Link } from '@tanstack/react-router';
import { Compass, LockKeyhole, LogOut, MessageCircle, Settings, SquarePlus, UserRound } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Button, buttonClasses } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { useSignOut } from '../../features/auth/use-sign-out';
import { useUnreadCount } from '../../features/messages/use-unread-count';
import { cn } from '../../lib/cn';
import type { CurrentUser } from '../../lib/trpc';
import { BrandLink } from './brand-link';

// only signed-in people have a bell: visitors' first page does not load it (the landing's script budget)
const LazyBell = lazy(() => import('../../features/notifications/notification-bell').then((m) => ({ default: m.NotificationBell })));
function NotificationBell({ className }: { className?: string }) {
  return (
    <Suspense fallback={<span aria-hidden="true" className={cn('inline-block size-9', className)} />}>
      <LazyBell className={className} />
    </Suspense>
  );
}
import { MobileUserMenu } from './mobile-user-menu';

const navLink =
  'inline-flex h-9 items-center gap-2 rounded-full px-3.5 text-sm font-medium text-muted transition-colors ' +
  'hover:bg-surface-hover hover:text-foreground data-[status=active]:bg-surface-raised data-[status=active]:text-foreground';

/** A top-bar link that stays marked on the screens under it. */
function NavLink({ to, icon, children }: { to: '/create' | '/messages' | '/settings'; icon: ReactNode; children: ReactNode }) {
  return (
    <Link to={to} className={navLink} activeOptions={{ exact: false }}>
      {icon}
      {children}
    </Link>
  );
}

export function UnreadBadge({ label, className }: { label: string | null; className?: string }) {
  if (!label) return null;
  return (
    <span
      className={cn(
        'inline-flex min-w-5 items-center justify-center rounded-full bg-pink px-1.5 text-[11px] font-bold leading-5 text-white',
        className,
      )}
    >
      {label}
      <span className="sr-only"> unread</span>
    </span>
  );
}

/** Holds the place of the session's links while it is checked: neither Sign In nor a user's links flash. */
export function SessionSlot({ className }: { className?: string }) {
  return <Skeleton data-testid="session-pending" className={cn('h-9 rounded-full', className)} />;
}

/**
 * The fixed top bar, 16 units high (spec part 1 §2). Desktop links from 768 px; a user dropdown below.
 * `sessionPending`: the first session check has not answered yet (a placeholder holds its place).
 */
export function TopBar({ user, sessionPending = false }: { user: CurrentUser | null; sessionPending?: boolean }) {
  const { signOut, isPending } = useSignOut();
  const unread = useUnreadCount(!!user);
  const icon = 'size-4';

  return (
    <header className="fixed inset-x-0 top-0 z-40 h-16 border-b border-border/80 bg-canvas/80 backdrop-blur-xl supports-[backdrop-filter]:bg-canvas/65">
      <div className="mx-auto flex h-full max-w-7xl items-center justify-between gap-4 px-4 md:px-6">
        <BrandLink />

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          <Link to="/explore" className={navLink}>
            <Compass aria-hidden="true" className={icon} />
            Explore
          </Link>
          <NavLink to="/create" icon={<SquarePlus aria-hidden="true" className={icon} />}>
            Create
          </NavLink>
          {user ? (
            <>
              <NavLink to="/messages" icon={<MessageCircle aria-hidden="true" className={icon} />}>
                Messages
                <UnreadBadge label={unread.label} />
              </NavLink>
              <Link to="/$username" params={{ username: user.username }} className={navLink} activeOptions={{ exact: false }}>
                <UserRound aria-hidden="true" className={icon} />
                Profile
              </Link>
              <NavLink to="/settings" icon={<Settings aria-hidden="true" className={icon} />}>
                Settings
              </NavLink>
              {user.role === 'admin' ? (
                <Link to="/admin" className={navLink} activeOptions={{ exact: false }}>
                  {/* an icon the landing page already loads (its script budget) */}
                  <LockKeyhole aria-hidden="true" className={icon} />
                  <span className="max-lg:sr-only">Admin</span>
                </Link>
              ) : null}
              <NotificationBell />
              <Button
                variant="ghost"
                size="icon"
                aria-label="Sign out"
                title="Sign out"
                onClick={() => void signOut()}
                loading={isPending}
                className="ml-1"
              >
                {isPending ? null : <LogOut aria-hidden="true" className="size-4" />}
              </Button>
            </>
          ) : sessionPending ? (
            <SessionSlot className="ml-2 w-24" />
          ) : (
            <Link to="/auth" search={{ tab: 'signin' }} className={buttonClasses({ size: 'md', className: 'ml-2' })}>
              Sign In
            </Link>
          )}
        </nav>

        <div className="flex items-center md:hidden">
          {user ? (
            <>
              <NotificationBell className="mr-1" />
              <MobileUserMenu user={user} onSignOut={() => void signOut()} />
            </>
          ) : sessionPending ? (
            <SessionSlot className="w-20" />
          ) : (
            <Link to="/auth" search={{ tab: 'signin' }} className={buttonClasses({ size: 'sm' })}>
              Sign In
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
