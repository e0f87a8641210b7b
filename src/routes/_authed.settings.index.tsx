import { createFileRoute } from '@tanstack/react-router';
import { SettingsMenu } from '../features/settings/settings-menu';
import { SETTINGS_MENU } from '../features/settings/settings-menus';
import { SettingsPage } from '../features/settings/settings-page';

/** /settings (spec part 2 §2), behind the `_authed` gate: settings need a session. */
export const Route = createFileRoute('/_authed/settings/')({
  component: () => (
    <SettingsPage title="Settings" description="Manage your profile, account and content." back="/">
      <SettingsMenu label="Settings" items={SETTINGS_MENU} />
    </SettingsPage>
  ),
});
