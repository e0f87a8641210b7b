import { createFileRoute } from '@tanstack/react-router';
import { ContentSettingsForm } from '../features/settings/content-settings-form';
import { SettingsPage } from '../features/settings/settings-page';

/** /settings/content (spec part 2 §2), behind the `_authed` gate: settings need a session. */
export const Route = createFileRoute('/_authed/settings_/content')({
  component: () => (
    <SettingsPage title="Content Settings" description="Defaults for your new uploads, and who may comment on your posts." back="/settings">
      <ContentSettingsForm />
    </SettingsPage>
  ),
});
