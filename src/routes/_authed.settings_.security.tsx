import { createFileRoute } from '@tanstack/react-router';
import { PasswordCard } from '../features/security/password-card';
import { SessionsCard } from '../features/security/sessions-card';
import { TwoFactorCard } from '../features/security/two-factor-card';
import { SettingsPage } from '../features/settings/settings-page';

/** /settings/security (issue 13): two-factor, password and sessions, behind the `_authed` gate. */
export const Route = createFileRoute('/_authed/settings_/security')({
  loader: ({ context }) => {
    void context.trpcUtils.security.overview.prefetch();
    void context.trpcUtils.security.sessions.prefetch();
  },
  component: () => (
    <SettingsPage title="Security" description="Two-factor sign-in, your password, and where you are signed in." back="/settings">
      <div className="flex flex-col gap-6">
        <TwoFactorCard />
        <PasswordCard />
        <SessionsCard />
      </div>
    </SettingsPage>
  ),
});
