import { createFileRoute } from '@tanstack/react-router';
import { VerificationStatus } from '../features/settings/verification-status';
import { SettingsPage } from '../features/settings/settings-page';

/** /settings/account/verification (spec part 2 §2), behind the `_authed` gate: settings need a session. */
export const Route = createFileRoute('/_authed/settings_/account_/verification')({
  component: () => (
    <SettingsPage title="Verification" description="Verified accounts earn more trust from fans." back="/settings/account">
      <VerificationStatus />
    </SettingsPage>
  ),
});
