import { Link } from '@tanstack/react-router';
import { Bell, ChevronDown, LockKeyhole, LogOut, Settings } from 'lucide-react';
import { Avatar } from '../../components/ui/avatar';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import type { CurrentUser } from '../../lib/trpc';

/** The username opens Settings and Sign Out (Radix: arrow keys, Escape, focus return). */
export default function MobileUserMenuDropdown({ user, onSignOut }: { user: CurrentUser; onSignOut: () => void }) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          className="flex max-w-[55vw] items-center gap-2 rounded-full border border-border bg-surface py-1 pr-3 pl-1 text-sm font-medium text-foreground hover:bg-surface-hover data-[state=open]:bg-surface-hover"
        >
          <Avatar src={user.avatarUrl} name={user.displayName || user.username} size="sm" ring={false} />
          {/* a phone keeps the avatar and the chevron: a long username would push the bar past the screen */}
          <span className="truncate max-[419px]:sr-only">{user.username}</span>
          <ChevronDown aria-hidden="true" className="size-4 shrink-0 text-muted" />
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Signed in as @{user.username}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/notifications">
            <Bell aria-hidden="true" className="size-4 text-muted" />
            Notifications
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/settings">
            <Settings aria-hidden="true" className="size-4 text-muted" />
            Settings
          </Link>
        </DropdownMenuItem>
        {user.role === 'admin' ? (
          <DropdownMenuItem asChild>
            <Link to="/admin">
              <LockKeyhole aria-hidden="true" className="size-4 text-muted" />
              Admin
            </Link>
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem tone="danger" onSelect={onSignOut}>
          <LogOut aria-hidden="true" className="size-4" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
