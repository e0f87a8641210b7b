import { createFileRoute } from '@tanstack/react-router';
import { SettingsMenu } from '../features/settings/settings-menu';
import { ACCOUNT_MENU } from '../features/settings/settings-menus';
import { SettingsPage } from '../features/settings/settings-page';

/** /settings/account (spec part 2 §2), behind the `_authed` gate: settings need a session. */
export const Route = createFileRoute('/_authed/settings_/account')({
  component: () => (
    <SettingsPage title="Account Preferences" description="Privacy, notifications, verification and payment." back="/settings">
      <SettingsMenu label="Account preferences" items={ACCOUNT_MENU} />
    </SettingsPage>
  ),
});
