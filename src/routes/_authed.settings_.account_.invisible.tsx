import { createFileRoute } from '@tanstack/react-router';
import { InvisibleMode } from '../features/settings/invisible-mode';
import { SettingsPage } from '../features/settings/settings-page';

/** /settings/account/invisible (spec part 2 §2), behind the `_authed` gate: settings need a session. */
export const Route = createFileRoute('/_authed/settings_/account_/invisible')({
  component: () => (
    <SettingsPage title="Invisible Mode" description="Browse without showing that you are online." back="/settings/account">
      <InvisibleMode />
    </SettingsPage>
  ),
});
