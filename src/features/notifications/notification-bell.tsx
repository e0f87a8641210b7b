import { Link } from '@tanstack/react-router';
import { Bell } from 'lucide-react';
import { cn } from '../../lib/cn';
import { useNotificationCount } from './use-notification-count';

/** The top bar's bell: its unread count comes live over the user's socket room. */
export function NotificationBell({ className }: { className?: string }) {
  const { label } = useNotificationCount(true);
  return (
    <Link
      to="/notifications"
      aria-label={label ? `Notifications (${label} unread)` : 'Notifications'}
      title="Notifications"
      data-testid="notification-bell"
      className={cn(
        'relative inline-flex size-9 items-center justify-center rounded-full text-muted transition-colors hover:bg-surface-hover hover:text-foreground data-[status=active]:bg-surface-raised data-[status=active]:text-foreground',
        className,
      )}
    >
      <Bell aria-hidden="true" className="size-4" />
      {label ? (
        <span
          data-testid="notification-count"
          className="absolute -right-0.5 -top-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-pink px-1 text-[11px] font-bold leading-5 text-white"
        >
          {label}
        </span>
      ) : null}
    </Link>
  );
}
