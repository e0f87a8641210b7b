import { createFileRoute } from '@tanstack/react-router';
import { PrivacyForm } from '../features/settings/privacy-form';
import { SettingsPage } from '../features/settings/settings-page';

/** /settings/account/privacy (spec part 2 §2), behind the `_authed` gate: settings need a session. */
export const Route = createFileRoute('/_authed/settings_/account_/privacy')({
  component: () => (
    <SettingsPage title="Privacy Settings" description="Choose who can see your profile and posts." back="/settings/account">
      <PrivacyForm />
    </SettingsPage>
  ),
});
