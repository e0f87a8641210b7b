import { createFileRoute, Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { buttonClasses } from '../components/ui/button';
import { PasswordCard } from '../features/security/password-card';
import { SessionsCard } from '../features/security/sessions-card';
import { TwoFactorCard } from '../features/security/two-factor-card';
import { usePageTitle } from '../lib/page-title';

/** /settings/security (issue 13): two-factor, password and sessions, behind the `_authed` gate. */
export const Route = createFileRoute('/_authed/settings_/security')({
  loader: ({ context }) => {
    void context.trpcUtils.security.overview.prefetch();
    void context.trpcUtils.security.sessions.prefetch();
  },
  component: SecurityPage,
});

function SecurityPage() {
  usePageTitle('Security');
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 md:px-6 md:py-12">
      <Link to="/settings" className={buttonClasses({ variant: 'ghost', size: 'sm', className: '-ml-2 mb-4' })}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back
      </Link>
      <h1 className="text-3xl font-bold tracking-tight">Security</h1>
      <p className="mt-1 mb-8 text-muted">Two-factor sign-in, your password, and where you are signed in.</p>
      <div className="flex flex-col gap-6">
        <TwoFactorCard />
        <PasswordCard />
        <SessionsCard />
      </div>
    </div>
  );
}
