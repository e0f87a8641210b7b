import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Laptop, Smartphone } from 'lucide-react';
import { SECURITY_TEXTS, type SessionDto } from '../../../common/security';
import { AUTH_TEXTS } from '../../../common/texts';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { formatRelativeTime } from '../../lib/format';
import { markSigningOut } from '../../lib/session';
import { notify } from '../../lib/toast';
import { isClientError, trpc } from '../../lib/trpc';
import { Section, SectionSkeleton } from './section';
import { forgetIdentity } from './forget-identity';

const failed = (error: unknown) => ({ title: 'Error', description: (isClientError(error) && (error as Error).message) || AUTH_TEXTS.signOutFailed.description });

/**
 * The account's signed-in devices (device, last seen; this one marked) with sign out of one, of
 * the others, or of all. The server disconnects each ended session's sockets, so that browser is
 * signed out at once.
 */
export function SessionsCard() {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const sessions = trpc.security.sessions.useQuery();
  const revoke = trpc.security.revokeSession.useMutation();
  const signOut = trpc.auth.signOut.useMutation();

  const leave = async () => {
    forgetIdentity(queryClient, utils);
    notify.success(AUTH_TEXTS.signedOut);
    await navigate({ to: '/' });
  };

  const revokeOne = async (session: SessionDto) => {
    try {
      if (session.current) markSigningOut(true);
      const result = await revoke.mutateAsync({ sessionId: session.id });
      if (result.current) return leave();
      notify.success(SECURITY_TEXTS.sessionSignedOut);
      await utils.security.sessions.invalidate();
    } catch (error) {
      markSigningOut(false);
      notify.error(failed(error));
    }
  };

  const signOutScope = async (scope: 'others' | 'global') => {
    try {
      if (scope === 'global') markSigningOut(true);
      await signOut.mutateAsync({ scope });
      if (scope === 'global') return leave();
      notify.success(AUTH_TEXTS.signedOutOthers);
      await utils.security.sessions.invalidate();
    } catch (error) {
      markSigningOut(false);
      notify.error(failed(error));
    }
  };

  const list = sessions.data;
  const others = list?.filter((s) => !s.current).length ?? 0;
  return (
    <Section id="sessions-heading" title="Where you're signed in" description="Sign out any device you don't recognise. It is signed out at once.">
      {!list ? (
        <SectionSkeleton label="Loading sessions" rows={2} />
      ) : (
        <div className="flex flex-col gap-4">
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border" aria-label="Sessions">
            {list.map((session) => {
              const Icon = /iOS|Android/.test(session.device) ? Smartphone : Laptop;
              return (
                <li key={session.id} data-testid="session-row" className="flex flex-wrap items-center gap-3 px-4 py-3">
                  <Icon aria-hidden="true" className="size-5 shrink-0 text-muted" />
                  <div className="flex min-w-0 flex-1 flex-col">
                    <span className="flex flex-wrap items-center gap-2 font-medium text-foreground">
                      {session.device}
                      {session.current ? <Badge variant="accent">This device</Badge> : null}
                    </span>
                    <span className="text-xs text-muted">
                      {session.current ? 'Active now' : `Last seen ${formatRelativeTime(session.lastSeenAt)}`}
                      {session.ip ? ` · ${session.ip}` : ''}
                    </span>
                  </div>
                  <ConfirmDialog
                    title={session.current ? 'Sign out of this device?' : `Sign out ${session.device}?`}
                    description={session.current ? 'You will need to sign in again here.' : 'That device is signed out at once and needs the password to come back.'}
                    confirmLabel="Sign out"
                    onConfirm={() => revokeOne(session)}
                    trigger={
                      <Button variant="secondary" size="sm" aria-label={`Sign out ${session.device}${session.current ? ' (this device)' : ''}`}>
                        Sign out
                      </Button>
                    }
                  />
                </li>
              );
            })}
          </ul>
          <div className="flex flex-wrap gap-2">
            <ConfirmDialog
              title="Sign out all other sessions?"
              description={`Every other device (${others}) is signed out at once. This one stays signed in.`}
              confirmLabel="Sign out others"
              onConfirm={() => signOutScope('others')}
              trigger={
                <Button variant="secondary" disabled={others === 0}>
                  Sign out other sessions
                </Button>
              }
            />
            <ConfirmDialog
              title="Sign out everywhere?"
              description="Every device, this one included, is signed out at once."
              confirmLabel="Sign out everywhere"
              onConfirm={() => signOutScope('global')}
              trigger={<Button variant="ghost">Sign out everywhere</Button>}
            />
          </div>
        </div>
      )}
    </Section>
  );
}
