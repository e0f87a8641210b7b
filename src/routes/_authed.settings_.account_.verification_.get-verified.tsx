import { createFileRoute } from '@tanstack/react-router';
import { GetVerified } from '../features/settings/get-verified';
import { SettingsPage } from '../features/settings/settings-page';

/** /settings/account/verification/get-verified (spec part 2 §2), behind the `_authed` gate: settings need a session. */
export const Route = createFileRoute('/_authed/settings_/account_/verification_/get-verified')({
  component: () => (
    <SettingsPage title="Get Verified" description="Choose a verification method." back="/settings/account/verification">
      <GetVerified />
    </SettingsPage>
  ),
});
