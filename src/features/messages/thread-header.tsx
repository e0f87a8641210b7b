import { Link } from '@tanstack/react-router';
import { ArrowLeft, Ban, MoreVertical, ShieldCheck, UserRound } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import type { PartnerDto } from '../../../common/message-dtos';
import { Avatar } from '../../components/ui/avatar';
import { Button, buttonClasses } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../components/ui/dropdown-menu';
import { SkeletonPerson } from '../../components/ui/skeleton';
import { VerifiedBadge } from '../../components/ui/verified-badge';
import { PremiumMark } from './premium-mark';

/**
 * The thread's header (spec part 2 §2): Back to /messages, avatar (first letter when there is
 * none) with the online dot, display name, marks, @username or 'typing…'; Block / Unblock.
 */
export function ThreadHeader({
  partner,
  typing,
  onBlock,
  onUnblock,
  tip = null,
}: {
  partner: PartnerDto | undefined;
  /** the Tip button, when the route gives one */
  tip?: ReactNode;
  typing: boolean;
  onBlock: () => Promise<void>;
  onUnblock: () => Promise<void>;
}) {
  const [confirmBlock, setConfirmBlock] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const profile = partner?.profile;
  const name = profile ? profile.displayName || profile.username : '';

  return (
    <header className="flex h-16 shrink-0 items-center gap-3 border-b border-border bg-surface/95 px-2 backdrop-blur md:px-4">
      <Link to="/messages" aria-label="Back to messages" title="Back" className={buttonClasses({ variant: 'ghost', size: 'icon', className: 'shrink-0' })}>
        <ArrowLeft aria-hidden="true" className="size-5" />
      </Link>
      {profile ? (
        <>
          <span className="relative shrink-0">
            <Avatar src={profile.avatarUrl} name={name} size="md" ring={false} />
            {partner.online ? (
              <span
                role="img"
                aria-label="Online"
                title="Online"
                data-testid="online-dot"
                className="absolute right-0 bottom-0 size-3 rounded-full bg-success ring-2 ring-surface"
              />
            ) : null}
          </span>
          <div className="flex min-w-0 flex-1 flex-col">
            <div className="flex items-center gap-1.5">
              <h1 className="truncate text-base font-semibold">{name}</h1>
              {profile.isVerified ? <VerifiedBadge /> : null}
              {profile.isPremium ? <PremiumMark /> : null}
            </div>
            <p className="truncate text-xs text-subtle" aria-live="polite">
              {typing ? <span className="text-violet-300">typing…</span> : `@${profile.username}`}
            </p>
          </div>
          {tip}
          <DropdownMenu modal={false}>
            <DropdownMenuTrigger asChild>
              <Button ref={menuButton} variant="ghost" size="icon" aria-label="Conversation options" className="shrink-0">
                <MoreVertical aria-hidden="true" className="size-5" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem asChild>
                <Link to="/$username" params={{ username: profile.username }}>
                  <UserRound aria-hidden="true" className="size-4" />
                  View profile
                </Link>
              </DropdownMenuItem>
              {partner.messaging === 'blocked-by-you' ? (
                <DropdownMenuItem onSelect={() => void onUnblock()}>
                  <ShieldCheck aria-hidden="true" className="size-4" />
                  Unblock
                </DropdownMenuItem>
              ) : (
                <DropdownMenuItem tone="danger" onSelect={() => setConfirmBlock(true)}>
                  <Ban aria-hidden="true" className="size-4" />
                  Block
                </DropdownMenuItem>
              )}
            </DropdownMenuContent>
          </DropdownMenu>
          <ConfirmDialog
            open={confirmBlock}
            onOpenChange={setConfirmBlock}
            returnFocusRef={menuButton}
            title={`Block @${profile.username}?`}
            description="They will no longer be able to message you, and you will not be able to message them until you unblock them."
            confirmLabel="Block"
            onConfirm={onBlock}
          />
        </>
      ) : (
        <SkeletonPerson aria-hidden="true" className="flex-1 items-center gap-3" avatar="size-10" lines={['h-4 w-32', 'h-3 w-20']} linesClassName="flex flex-col gap-1.5" />
      )}
    </header>
  );
}
